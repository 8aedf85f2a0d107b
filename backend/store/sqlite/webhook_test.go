package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestExportOutbox: an export records its webhook delivery in its own
// transaction exactly when it should: notify set and the webhook
// enabled; an export refused by a full pool records none.
func TestExportOutbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	q, err := db.OpenQueue(ctx, jobs.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hooks := q.Webhooks()
	for i, id := range []string{"acct-on", "acct-off", "acct-none"} {
		if err := db.Accounts().CreateAccount(ctx, newAccount(id, id+"@example.test")); err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			c := &webhook.Config{AccountID: id, URL: "https://hooks.example/" + id, Enabled: i == 0, Secret: "whsec_x",
				CreatedAt: t0, UpdatedAt: t0}
			if err := hooks.SaveWebhook(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	n := 0
	export := func(accountID string, notify bool, cap int) error {
		n++
		e := &project.Export{ID: uuidN(n), AccountID: accountID, ProjectID: uuidN(1000 + n), IRRevision: 3,
			CreatedAt: t0, Artifacts: []project.Artifact{{ID: uuidN(2000 + n), ExportID: uuidN(n),
				AccountID: accountID, Preset: "lms", BlobKey: "artifacts/" + uuidN(n) + "/lms.vtt",
				Filename: "x-lms.vtt", ContentType: "text/vtt", Bytes: 1, SHA256: "00", CreatedAt: t0}}}
		_, err := q.Exports().CreateExport(ctx, e, project.RunCount{Pool: "account:" + accountID, Day: t0, Cap: cap}, notify)
		return err
	}
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
		err = export(tc.account, tc.notify, tc.cap)
		if tc.wantErr == nil && err != nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) && err != nil {
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
				!d.CreatedAt.Equal(t0) || !strings.Contains(string(d.Body), `"irRevision":3,"artifacts":[{"preset":"lms"`) {
				t.Errorf("%s: delivery %+v", tc.name, d)
			}
		}
	}
}

// TestDeliveryLogPruned: the hourly pruner (run once at start) deletes
// finished deliveries older than the retention and keeps the rest,
// pending ones whatever their age.
func TestDeliveryLogPruned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := t0.Add(40 * 24 * time.Hour)
	db := testkit.MustOpenDB(t)
	if err := db.Accounts().CreateAccount(ctx, newAccount("acct", "acct@example.test")); err != nil {
		t.Fatal(err)
	}
	setup, err := db.OpenQueue(ctx, jobs.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
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
	for i, r := range rows {
		at := now.Add(-r.age)
		d := &webhook.Delivery{ID: uuidN(i + 1), AccountID: "acct", Event: webhook.EventTest, Body: []byte(`{}`),
			Status: r.status, CreatedAt: at, WindowStart: at, Run: 1}
		if err := setup.Webhooks().InsertDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	q, err := db.OpenQueue(ctx, jobs.QueueOptions{KeepDeliveries: keep, Now: func() time.Time { return now },
		PollInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = q.Stop(sctx)
	}()
	want := 0
	for _, r := range rows {
		if r.kept {
			want++
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := q.Webhooks().Deliveries(ctx, "acct", 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == want {
			for _, d := range list {
				if i := int(d.ID[len(d.ID)-1] - '1'); i < 0 || i >= len(rows) || !rows[i].kept {
					t.Errorf("kept %s (%s)", d.ID, d.Status)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries left, want %d", len(list), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// uuidN is a fixed, valid UUID ending in n's decimal digits.
func uuidN(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
