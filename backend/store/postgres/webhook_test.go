package postgres

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// testDelivery is delivery n of the account, a test event created at.
func testDelivery(n int, accountID string, at time.Time) *webhook.Delivery {
	return &webhook.Delivery{ID: idN(n), AccountID: accountID, Event: webhook.EventTest, Body: []byte(`{"n":1}`),
		Status: webhook.Pending, CreatedAt: at, WindowStart: at, NextAttemptAt: at, Run: 1}
}

// webhookJobRuns returns the runs of the delivery's queued jobs, in the
// order they were inserted.
func webhookJobRuns(t *testing.T, db *DB, deliveryID string) []int {
	t.Helper()
	rows, err := db.pool.Query(context.Background(), `SELECT (args->>'run')::int FROM river_job
		WHERE kind = $1 AND args->>'deliveryId' = $2 ORDER BY id`, jobs.WebhookJobKind, deliveryID)
	if err != nil {
		t.Fatal(err)
	}
	var runs []int
	for rows.Next() {
		var r int
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return runs
}

func TestWebhookConfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1")
	s := openQueue(t, db).Webhooks()
	_, err := s.Webhook(ctx, "a1")
	checkKind(t, err, apperr.NotFound)
	checkKind(t, s.SaveWebhook(ctx, &webhook.Config{AccountID: "nobody", URL: "https://x.example", Secret: "s",
		CreatedAt: projT0, UpdatedAt: projT0}), apperr.NotFound)

	first := &webhook.Config{AccountID: "a1", URL: "https://hooks.example/1", Enabled: true, Secret: "whsec_1",
		CreatedAt: projT0.Add(300 * time.Millisecond), UpdatedAt: projT0}
	later := projT0.Add(time.Hour)
	// A save replaces the URL, state and secret, and keeps the creation.
	replaced := &webhook.Config{AccountID: "a1", URL: "https://hooks.example/2", Enabled: false, Secret: "whsec_2",
		CreatedAt: later, UpdatedAt: later}
	for _, tc := range []struct {
		save, want *webhook.Config
	}{
		{first, &webhook.Config{AccountID: "a1", URL: first.URL, Enabled: true, Secret: first.Secret, CreatedAt: projT0, UpdatedAt: projT0}},
		{replaced, &webhook.Config{AccountID: "a1", URL: replaced.URL, Enabled: false, Secret: replaced.Secret, CreatedAt: projT0, UpdatedAt: later}},
	} {
		checkKind(t, s.SaveWebhook(ctx, tc.save), apperr.Internal)
		got, err := s.Webhook(ctx, "a1")
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("after saving %s: %+v, %v; want %+v", tc.save.URL, got, err, tc.want)
		}
	}
}

func TestDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1", "a2")
	s := openQueue(t, db).Webhooks()
	_, err := s.LastDelivery(ctx, "a1")
	checkKind(t, err, apperr.NotFound)
	if list, err := s.Deliveries(ctx, "a1", 10); err != nil || list == nil || len(list) != 0 {
		t.Errorf("no deliveries: %v, %v", list, err)
	}
	checkKind(t, s.InsertDelivery(ctx, testDelivery(9, "nobody", projT0)), apperr.NotFound)

	// Every optional field set, times off the second.
	full := &webhook.Delivery{ID: idN(1), AccountID: "a1", Event: webhook.EventExportComplete, ProjectID: idN(50),
		IRRevision: 4, ExportID: idN(51), Body: []byte(`{"event":"export_complete"}`), Status: webhook.Failed, Attempts: 3,
		LastStatusCode: 500, LastError: "HTTP 500", LastAttemptAt: projT0.Add(1500 * time.Millisecond),
		NextAttemptAt: projT0.Add(time.Minute), DeliveredAt: projT0.Add(2 * time.Minute), CreatedAt: projT0.Add(-time.Hour),
		WindowStart: projT0.Add(-time.Hour), Run: 2}
	bare := testDelivery(2, "a1", projT0)
	sameSecond := testDelivery(3, "a1", projT0.Add(900*time.Millisecond)) // after bare, same second
	other := testDelivery(4, "a2", projT0.Add(time.Hour))
	for _, d := range []*webhook.Delivery{full, bare, sameSecond, other} {
		checkKind(t, s.InsertDelivery(ctx, d), apperr.Internal)
	}
	got, err := s.Delivery(ctx, full.ID)
	want := *full
	want.LastAttemptAt = projT0.Add(time.Second)
	if err != nil || !reflect.DeepEqual(got, &want) {
		t.Errorf("Delivery:\n got %+v\nwant %+v (%v)", got, &want, err)
	}
	got, err = s.Delivery(ctx, bare.ID)
	if err != nil || !reflect.DeepEqual(got, bare) {
		t.Errorf("bare Delivery:\n got %+v\nwant %+v (%v)", got, bare, err)
	}
	_, err = s.Delivery(ctx, idN(99))
	checkKind(t, err, apperr.NotFound)

	// Newest first; within a second, the later inserted first.
	for _, tc := range []struct {
		limit int
		want  []string
	}{
		{10, []string{idN(3), idN(2), idN(1)}},
		{2, []string{idN(3), idN(2)}},
	} {
		list, err := s.Deliveries(ctx, "a1", tc.limit)
		var ids []string
		for _, d := range list {
			ids = append(ids, d.ID)
		}
		if err != nil || !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("Deliveries(limit %d) = %v, %v; want %v", tc.limit, ids, err, tc.want)
		}
	}
	if last, err := s.LastDelivery(ctx, "a1"); err != nil || last.ID != idN(3) {
		t.Errorf("LastDelivery = %v, %v", last, err)
	}
}

// TestDeliveryRuns: an attempt records only in its delivery's current
// run; a requeue starts the next run and queues its job.
func TestDeliveryRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1")
	s := openQueue(t, db).Webhooks()
	d := testDelivery(1, "a1", projT0)
	checkKind(t, s.InsertDelivery(ctx, d), apperr.Internal)

	attempt := *d
	attempt.Status, attempt.Attempts, attempt.LastStatusCode, attempt.LastError = webhook.Pending, 1, 503, "HTTP 503"
	attempt.LastAttemptAt, attempt.NextAttemptAt = projT0.Add(time.Second), projT0.Add(time.Minute)
	checkKind(t, s.RecordAttempt(ctx, &attempt), apperr.Internal)
	if got, err := s.Delivery(ctx, d.ID); err != nil || !reflect.DeepEqual(got, &attempt) {
		t.Errorf("after the attempt:\n got %+v\nwant %+v (%v)", got, &attempt, err)
	}

	redo := attempt
	redo.WindowStart, redo.NextAttemptAt = projT0.Add(time.Hour), projT0.Add(time.Hour)
	checkKind(t, s.Requeue(ctx, &redo), apperr.Internal)
	if redo.Run != 2 {
		t.Errorf("requeued into run %d, want 2", redo.Run)
	}
	if runs := webhookJobRuns(t, db, d.ID); !reflect.DeepEqual(runs, []int{2}) {
		t.Errorf("queued runs %v, want [2]", runs)
	}
	for _, tc := range []struct {
		name string
		d    webhook.Delivery
		want apperr.Kind
	}{
		{"old run", attempt, apperr.NotFound},
		{"current run", redo, apperr.Internal},
		{"unknown", webhook.Delivery{ID: idN(9), Run: 1, Status: webhook.Failed}, apperr.NotFound},
	} {
		tc.d.Status, tc.d.Attempts = webhook.Delivered, 2
		tc.d.DeliveredAt = projT0.Add(2 * time.Hour)
		if err := s.RecordAttempt(ctx, &tc.d); apperr.KindOf(err) != tc.want || tc.want != apperr.Internal && err == nil {
			t.Errorf("%s: RecordAttempt: %v, want %s", tc.name, err, tc.want.Code())
		}
	}
	got, err := s.Delivery(ctx, d.ID)
	if err != nil || got.Status != webhook.Delivered || got.Run != 2 || !got.WindowStart.Equal(redo.WindowStart) {
		t.Errorf("after the requeued attempt: %+v, %v", got, err)
	}
	checkKind(t, s.Requeue(ctx, &webhook.Delivery{ID: idN(9), Status: webhook.Pending, WindowStart: projT0}), apperr.NotFound)
}

// TestExportOutbox: an export records its webhook delivery in its own
// transaction exactly when it should: notify set and the webhook
// enabled; an export refused by a full pool records none.
func TestExportOutbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	q := openQueue(t, db)
	hooks := q.Webhooks()
	seedAccounts(t, db, "acct-on", "acct-off", "acct-none")
	for i, id := range []string{"acct-on", "acct-off"} {
		c := &webhook.Config{AccountID: id, URL: "https://hooks.example/" + id, Enabled: i == 0, Secret: "whsec_x",
			CreatedAt: projT0, UpdatedAt: projT0}
		if err := hooks.SaveWebhook(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, tc := range []struct {
		name      string
		account   string
		notify    bool
		cap       int
		wantErr   error
		wantAdded int
	}{
		{"enabled and notify", "acct-on", true, 100, nil, 1},
		{"not entitled", "acct-on", false, 100, nil, 0},
		{"disabled", "acct-off", true, 100, nil, 0},
		{"no webhook", "acct-none", true, 100, nil, 0},
		{"pool full: rolled back", "acct-on", true, 0, project.ErrPoolFull, 0},
	} {
		before, err := hooks.Deliveries(ctx, tc.account, 100)
		if err != nil {
			t.Fatal(err)
		}
		n++
		e := testExport(n, tc.account, projT0, "lms")
		_, err = q.Exports().CreateExport(ctx, e, project.RunCount{Pool: "account:" + tc.account, Day: exportDay, Cap: tc.cap}, tc.notify)
		if !errors.Is(err, tc.wantErr) && !(tc.wantErr == nil && err == nil) {
			t.Fatalf("%s: CreateExport: %v", tc.name, err)
		}
		after, err := hooks.Deliveries(ctx, tc.account, 100)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(after) - len(before); got != tc.wantAdded {
			t.Errorf("%s: %d deliveries recorded, want %d", tc.name, got, tc.wantAdded)
		}
		if tc.wantAdded == 1 {
			d := after[0]
			if d.Status != webhook.Pending || d.Event != webhook.EventExportComplete || d.IRRevision != 3 || d.Attempts != 0 ||
				d.ExportID != e.ID || !d.CreatedAt.Equal(projT0) || !strings.Contains(string(d.Body), `"irRevision":3,"artifacts":[{"preset":"lms"`) {
				t.Errorf("%s: delivery %+v", tc.name, d)
			}
			if runs := webhookJobRuns(t, db, d.ID); !reflect.DeepEqual(runs, []int{1}) {
				t.Errorf("%s: queued runs %v, want [1]", tc.name, runs)
			}
		}
	}
	var queued int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1`, jobs.WebhookJobKind).Scan(&queued); err != nil || queued != 1 {
		t.Errorf("%d delivery jobs queued (%v), want 1", queued, err)
	}
}

// TestDeliveryLogPruned: the hourly pruner (run once at start) deletes
// finished deliveries older than the retention and keeps the rest,
// pending ones whatever their age.
func TestDeliveryLogPruned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := projT0.Add(40 * 24 * time.Hour)
	db := openTest(t, nil)
	seedAccounts(t, db, "acct")
	keep := 30 * 24 * time.Hour
	rows := []struct {
		status webhook.Status
		age    time.Duration
		kept   bool
	}{
		{webhook.Delivered, 31 * 24 * time.Hour, false},
		{webhook.Failed, 35 * 24 * time.Hour, false},
		{webhook.Disabled, 40 * 24 * time.Hour, false},
		{webhook.Pending, 39 * 24 * time.Hour, true},
		{webhook.Delivered, 29 * 24 * time.Hour, true},
	}
	setup := openQueue(t, db)
	for i, r := range rows {
		d := testDelivery(i+1, "acct", now.Add(-r.age))
		d.Status = r.status
		if err := setup.Webhooks().InsertDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	q := startQueue(t, db, jobs.QueueOptions{KeepDeliveries: keep, Now: func() time.Time { return now }})
	want := []string{}
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].kept {
			want = append(want, idN(i+1))
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := q.Webhooks().Deliveries(ctx, "acct", 100)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, d := range list {
			ids = append(ids, d.ID)
		}
		if len(ids) == len(want) {
			if !reflect.DeepEqual(ids, want) {
				t.Errorf("kept %v, want %v", ids, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries left: %v, want %v", ids, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stickJob makes the delivery's job of run look as if a node took it at
// attempted and died: running, never finished.
func stickJob(t *testing.T, db *DB, deliveryID string, run int, attempted time.Time) {
	t.Helper()
	tag, err := db.pool.Exec(context.Background(), `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = $1
		WHERE kind = $2 AND args->>'deliveryId' = $3 AND (args->>'run')::int = $4`, attempted, jobs.WebhookJobKind, deliveryID, run)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("stick the job of %s run %d: %v (%d rows)", deliveryID, run, err, tag.RowsAffected())
	}
}

// TestRescueDeliveries: the rescuer restarts a pending delivery whose
// current run's job has been running since before the cutoff, once,
// even with rescuers on two nodes at the same moment, and leaves
// everything else alone.
func TestRescueDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	nodes := openNodes(t, 2, func() time.Time { return now })
	db := nodes[0]
	seedAccounts(t, db, "a1")
	queues := []*Queue{openQueue(t, nodes[0]), openQueue(t, nodes[1])}
	s := queues[0].Webhooks()
	long, short := now.Add(-10*time.Minute), now.Add(-time.Minute)
	cases := []struct {
		name     string
		status   webhook.Status
		stuckRun int       // the run whose job is stuck (0: none is)
		since    time.Time // when it was taken
		requeues int       // runs started before the job got stuck
		wantRun  int
	}{
		{"stuck", webhook.Pending, 1, long, 0, 2},
		{"running briefly", webhook.Pending, 1, short, 0, 1},
		{"delivered meanwhile", webhook.Delivered, 1, long, 0, 1},
		{"stuck job of an old run", webhook.Pending, 1, long, 1, 2},
		{"waiting", webhook.Pending, 0, time.Time{}, 0, 1},
	}
	for i, tc := range cases {
		d := testDelivery(i+1, "a1", now.Add(-time.Hour))
		d.Status = tc.status
		err := queues[0].WriteTx(ctx, func(tx *Tx) error {
			if err := tx.insertDelivery(ctx, d); err != nil {
				return err
			}
			_, err := tx.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: 1}, jobs.WebhookJobOpts())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if tc.stuckRun > 0 {
			stickJob(t, db, d.ID, tc.stuckRun, tc.since)
		}
		for range tc.requeues {
			redo := *d
			if err := s.Requeue(ctx, &redo); err != nil {
				t.Fatal(err)
			}
		}
	}
	cutoff := now.Add(-5 * time.Minute)
	rescued := make([]int, len(queues))
	errs := make([]error, len(queues))
	var wg sync.WaitGroup
	for i, q := range queues {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = q.WriteTx(ctx, func(tx *Tx) error {
				var err error
				rescued[i], err = tx.rescueDeliveries(ctx, cutoff)
				return err
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if rescued[0]+rescued[1] != 1 {
		t.Errorf("rescued %v, want one delivery in all", rescued)
	}
	for i, tc := range cases {
		d, err := s.Delivery(ctx, idN(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if d.Run != tc.wantRun {
			t.Errorf("%s: run %d, want %d", tc.name, d.Run, tc.wantRun)
		}
		if tc.name == "stuck" && (!d.NextAttemptAt.Equal(now) || !d.WindowStart.Equal(now.Add(-time.Hour))) {
			t.Errorf("%s: next attempt %v, window %v: want now and the window kept", tc.name, d.NextAttemptAt, d.WindowStart)
		}
	}
	// The new run's job waits: nothing is stuck any more.
	err := queues[1].WriteTx(ctx, func(tx *Tx) error {
		n, err := tx.rescueDeliveries(ctx, cutoff)
		if n != 0 {
			t.Errorf("second pass rescued %d", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeliveryRescuerRuns: a queue with RescueDeliveriesAfter runs the
// rescuer when it starts.
func TestDeliveryRescuerRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1")
	d := testDelivery(1, "a1", projT0)
	err := openQueue(t, db).WriteTx(ctx, func(tx *Tx) error {
		if err := tx.insertDelivery(ctx, d); err != nil {
			return err
		}
		_, err := tx.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: 1}, jobs.WebhookJobOpts())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stickJob(t, db, d.ID, 1, time.Now().Add(-10*time.Minute))
	// The new run's job needs a worker: River refuses to enqueue a kind
	// its client does not work, unless the client works none.
	ws := jobs.NewWorkers()
	jobs.Handle(ws, func(context.Context, jobs.WebhookJob) error { return nil })
	q := startQueue(t, db, jobs.QueueOptions{Workers: ws, RescueDeliveriesAfter: 2 * time.Minute})
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := q.Webhooks().Delivery(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Run == 2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery still in run %d", got.Run)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
