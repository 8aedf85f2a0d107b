package sqlstore_test

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
	"github.com/captionqa/captionqa/backend/store/sqlstore"
	"github.com/captionqa/captionqa/backend/webhook"
)

// webhookJobRuns returns the runs of the delivery's queued jobs, in the
// order they were inserted.
func webhookJobRuns(t *testing.T, db *sqlstore.DB, deliveryID string) []int {
	t.Helper()
	return column[int](t, db, `SELECT CAST(args->>'run' AS integer) FROM river_job
		WHERE kind = $1 AND args->>'deliveryId' = $2 ORDER BY id`, jobs.WebhookJobKind, deliveryID)
}

// TestWebhookConfig: saving over a webhook replaces its URL, state and
// secret but keeps when it was first created (the upsert does not
// touch created_at).
func TestWebhookConfig(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Webhooks()
		later := storeT0.Add(time.Hour)
		for _, c := range []*webhook.Config{
			{AccountID: "a1", URL: "https://hooks.example/1", Enabled: true, Secret: "whsec_1", CreatedAt: storeT0, UpdatedAt: storeT0},
			{AccountID: "a1", URL: "https://hooks.example/2", Enabled: false, Secret: "whsec_2", CreatedAt: later, UpdatedAt: later},
		} {
			mustKind(t, s.SaveWebhook(ctx, c), apperr.Internal)
		}
		want := &webhook.Config{AccountID: "a1", URL: "https://hooks.example/2", Enabled: false, Secret: "whsec_2",
			CreatedAt: storeT0, UpdatedAt: later}
		if got, err := s.Webhook(ctx, "a1"); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after saving twice: %+v, %v; want %+v", got, err, want)
		}
	})
}

// TestDeliveries: every field, the run included, reads back as
// inserted; deliveries made in one second list the later inserted first
// (the insertion order: SQLite's rowid, PostgreSQL's seq column), and
// LastDelivery is that one; an account without deliveries lists an
// empty list, not nil.
func TestDeliveries(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Webhooks()
		if list, err := s.Deliveries(ctx, "a1", 10); err != nil || list == nil || len(list) != 0 {
			t.Errorf("no deliveries: %#v, %v", list, err)
		}
		full := &webhook.Delivery{ID: uuidOf(1), AccountID: "a1", Event: webhook.EventExportComplete, ProjectID: uuidOf(50),
			IRRevision: 4, ExportID: uuidOf(51), Body: []byte(`{"event":"export_complete"}`), Status: webhook.Failed, Attempts: 3,
			LastStatusCode: 500, LastError: "HTTP 500", LastAttemptAt: storeT0.Add(time.Second),
			NextAttemptAt: storeT0.Add(time.Minute), DeliveredAt: storeT0.Add(2 * time.Minute), CreatedAt: storeT0.Add(-time.Hour),
			WindowStart: storeT0.Add(-time.Hour), Run: 2}
		// In one second, made in this order against their ids'.
		for _, d := range []*webhook.Delivery{full, testDelivery(3, "a1", storeT0), testDelivery(2, "a1", storeT0)} {
			mustKind(t, s.InsertDelivery(ctx, d), apperr.Internal)
		}
		if got, err := s.Delivery(ctx, full.ID); err != nil || !reflect.DeepEqual(got, full) {
			t.Errorf("Delivery:\n got %+v\nwant %+v (%v)", got, full, err)
		}
		list, err := s.Deliveries(ctx, "a1", 10)
		var ids []string
		for _, d := range list {
			ids = append(ids, d.ID)
		}
		if want := []string{uuidOf(2), uuidOf(3), uuidOf(1)}; err != nil || !reflect.DeepEqual(ids, want) {
			t.Errorf("Deliveries = %v, %v; want %v", ids, err, want)
		}
		if last, err := s.LastDelivery(ctx, "a1"); err != nil || last.ID != uuidOf(2) {
			t.Errorf("LastDelivery = %v, %v; want %s", last, err, uuidOf(2))
		}
	})
}

// TestDeliveryRuns: inserting a delivery queues no job (the caller's
// transaction does); a requeue starts the next run and queues its job
// in River.
func TestDeliveryRuns(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Webhooks()
		d := testDelivery(1, "a1", storeT0)
		mustKind(t, s.InsertDelivery(ctx, d), apperr.Internal)
		if runs := webhookJobRuns(t, db, d.ID); len(runs) != 0 {
			t.Errorf("inserting queued runs %v", runs)
		}
		redo := *d
		redo.WindowStart, redo.NextAttemptAt = storeT0.Add(time.Hour), storeT0.Add(time.Hour)
		mustKind(t, s.Requeue(ctx, &redo), apperr.Internal)
		if redo.Run != 2 {
			t.Errorf("requeued into run %d, want 2", redo.Run)
		}
		if runs := webhookJobRuns(t, db, d.ID); !reflect.DeepEqual(runs, []int{2}) {
			t.Errorf("queued runs %v, want [2]", runs)
		}
	})
}

// TestExportOutbox: an export records its webhook delivery, and queues
// its River job (run 1), in its own transaction exactly when it should:
// notify set and the webhook enabled; the exports that record no
// delivery, one rolled back by a full pool included, queue none.
func TestExportOutbox(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		q := openQueue(t, db)
		hooks := q.Webhooks()
		seedAccountRows(t, db, "acct-on", "acct-off", "acct-none")
		for i, id := range []string{"acct-on", "acct-off"} {
			c := &webhook.Config{AccountID: id, URL: "https://hooks.example/" + id, Enabled: i == 0, Secret: "whsec_x",
				CreatedAt: storeT0, UpdatedAt: storeT0}
			if err := hooks.SaveWebhook(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		for i, tc := range []struct {
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
			_, err = q.Exports().CreateExport(ctx, testExport(i+1, tc.account, storeT0, "lms"),
				project.RunCount{Pool: "account:" + tc.account, Day: exportDay, Cap: tc.cap}, tc.notify)
			if !errors.Is(err, tc.wantErr) {
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
					!d.CreatedAt.Equal(storeT0) || !strings.Contains(string(d.Body), `"irRevision":3,"artifacts":[{"preset":"lms"`) {
					t.Errorf("%s: delivery %+v", tc.name, d)
				}
			}
		}
		list, err := hooks.Deliveries(ctx, "acct-on", 100)
		if err != nil || len(list) != 1 {
			t.Fatalf("acct-on's deliveries: %+v, %v; want the one", list, err)
		}
		if runs := webhookJobRuns(t, db, list[0].ID); !reflect.DeepEqual(runs, []int{1}) {
			t.Errorf("queued runs %v, want [1]", runs)
		}
		if queued := countRows(t, db, `SELECT count(*) FROM river_job WHERE kind = $1`, jobs.WebhookJobKind); queued != 1 {
			t.Errorf("%d delivery jobs queued, want 1", queued)
		}
	})
}

// TestDeliveryLogPruned: the hourly pruner (run once at start) deletes
// finished deliveries older than the retention and keeps the rest,
// pending ones whatever their age.
func TestDeliveryLogPruned(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		now := storeT0.Add(40 * 24 * time.Hour)
		db := open(t, nil)
		seedAccountRows(t, db, "acct")
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
				want = append(want, uuidOf(i+1))
			}
		}
		var ids []string
		pollUntil(t, "the pruner to leave only what it keeps", func() bool {
			list, err := q.Webhooks().Deliveries(ctx, "acct", 100)
			if err != nil {
				t.Fatal(err)
			}
			ids = []string{}
			for _, d := range list {
				ids = append(ids, d.ID)
			}
			return len(ids) == len(want)
		})
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("kept %v, want %v", ids, want)
		}
	})
}

// riverTime is the value of a time column of River's on the engine:
// River's SQLite driver keeps times as text in a layout of its own
// (which the rescuer's query must read: not the store's RFC 3339),
// PostgreSQL as timestamptz.
func riverTime(engine string, t time.Time) any {
	if engine == "sqlite" {
		return t.UTC().Format("2006-01-02 15:04:05.000")
	}
	return t
}

// stickJob makes the delivery's job of run look as if a node took it at
// attempted and died: running, never finished.
func stickJob(t *testing.T, engine string, db *sqlstore.DB, deliveryID string, run int, attempted time.Time) {
	t.Helper()
	res, err := db.Exec(context.Background(), `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = $1
		WHERE kind = $2 AND args->>'deliveryId' = $3 AND CAST(args->>'run' AS integer) = $4`,
		riverTime(engine, attempted), jobs.WebhookJobKind, deliveryID, run)
	if err != nil {
		t.Fatalf("stick the job of %s run %d: %v", deliveryID, run, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("stick the job of %s run %d: %d rows (%v)", deliveryID, run, n, err)
	}
}

// insertQueued records d and queues the job of its first run.
func insertQueued(t *testing.T, q *sqlstore.Queue, d *webhook.Delivery) {
	t.Helper()
	ctx := context.Background()
	if err := q.Webhooks().InsertDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := q.WriteTx(ctx, func(tx *sqlstore.Tx) error {
		_, err := tx.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: 1}, jobs.WebhookJobOpts())
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestRescueDeliveries: the rescuer restarts a pending delivery whose
// current run's job has been running since before the cutoff, once,
// even with rescuers on two nodes (two handles on one SQLite file, two
// pools on one PostgreSQL database) at the same moment, and leaves
// everything else alone.
func TestRescueDeliveries(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Second)
			nodes := e.nodes(t, 2, func() time.Time { return now })
			db := nodes[0]
			seedAccountRows(t, db, "a1")
			queues := []*sqlstore.Queue{openQueue(t, nodes[0]), openQueue(t, nodes[1])}
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
				insertQueued(t, queues[0], d)
				if tc.stuckRun > 0 {
					stickJob(t, e.name, db, d.ID, tc.stuckRun, tc.since)
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
				wg.Go(func() {
					errs[i] = q.WriteTx(ctx, func(tx *sqlstore.Tx) error {
						var err error
						rescued[i], err = tx.RescueDeliveries(ctx, cutoff)
						return err
					})
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			if rescued[0]+rescued[1] != 1 {
				t.Errorf("rescued %v, want one delivery in all", rescued)
			}
			for i, tc := range cases {
				d, err := s.Delivery(ctx, uuidOf(i+1))
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
			if runs := webhookJobRuns(t, db, uuidOf(1)); !reflect.DeepEqual(runs, []int{1, 2}) {
				t.Errorf("stuck delivery's queued runs %v, want [1 2]", runs)
			}
			// The new run's job waits: nothing is stuck any more.
			err := queues[1].WriteTx(ctx, func(tx *sqlstore.Tx) error {
				n, err := tx.RescueDeliveries(ctx, cutoff)
				if n != 0 {
					t.Errorf("second pass rescued %d", n)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDeliveryRescuerRuns: a queue with RescueDeliveriesAfter runs the
// rescuer when it starts.
func TestDeliveryRescuerRuns(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := e.open(t, nil)
			seedAccountRows(t, db, "a1")
			d := testDelivery(1, "a1", storeT0)
			insertQueued(t, openQueue(t, db), d)
			stickJob(t, e.name, db, d.ID, 1, time.Now().Add(-10*time.Minute))
			// The new run's job needs a worker: River refuses to enqueue a
			// kind its client does not work, unless the client works none.
			ws := jobs.NewWorkers()
			jobs.Handle(ws, func(context.Context, jobs.WebhookJob) error { return nil })
			q := startQueue(t, db, jobs.QueueOptions{Workers: ws, RescueDeliveriesAfter: 2 * time.Minute})
			pollUntil(t, "the rescuer to start run 2", func() bool {
				got, err := q.Webhooks().Delivery(ctx, d.ID)
				if err != nil {
					t.Fatal(err)
				}
				return got.Run == 2
			})
		})
	}
}
