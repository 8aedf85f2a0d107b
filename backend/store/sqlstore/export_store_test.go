package sqlstore_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestExportStore covers what the store has or does beyond the
// conformance suite: Export reads an export back with its artifacts in
// the order they were inserted; an insert that fails after the run was
// taken (a blob key already taken) rolls the run back; ArtifactBlobKeys
// lists every key in byte order.
func TestExportStore(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1", "a2")
		s := db.Exports()
		runOf := func(accountID string) project.RunCount {
			return project.RunCount{Pool: "account:" + accountID, Day: exportDay, Cap: 5}
		}
		// Inserted out of preset order: Export keeps the order of insertion.
		e1 := testExport(1, "a1", storeT0, "srt", "lms", "broadcast")
		if _, err := s.CreateExport(ctx, e1, runOf("a1"), false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateExport(ctx, testExport(2, "a1", storeT0), runOf("a1"), false); err != nil {
			t.Fatal(err)
		}
		taken := &project.Export{ID: uuidOf(5), AccountID: "a2", ProjectID: uuidOf(6), IRRevision: 1, CreatedAt: storeT0,
			Artifacts: []project.Artifact{{ID: uuidOf(7), ExportID: uuidOf(5), AccountID: "a2", Preset: "lms", BlobKey: e1.Artifacts[0].BlobKey,
				Filename: "f", ContentType: "text/vtt", CreatedAt: storeT0}}}
		if _, err := s.CreateExport(ctx, taken, runOf("a2"), false); err == nil {
			t.Error("an artifact's blob key taken: no error")
		}
		_, err := s.Export(ctx, "a2", taken.ID)
		mustKind(t, err, apperr.NotFound)
		if used, err := db.Quotas().Used(ctx, "account:a2", exportDay); err != nil || used != 0 {
			t.Errorf("pool of the failed export: used %d (%v), want 0", used, err)
		}

		got, err := s.Export(ctx, "a1", e1.ID)
		if err != nil || !reflect.DeepEqual(got, e1) {
			t.Errorf("Export:\n got %+v\nwant %+v (%v)", got, e1, err)
		}
		if got, err := s.Export(ctx, "a1", uuidOf(2)); err != nil || got.Artifacts != nil {
			t.Errorf("export without artifacts: %+v, %v", got, err)
		}
		_, err = s.Export(ctx, "a2", e1.ID)
		mustKind(t, err, apperr.NotFound)

		keys, err := s.ArtifactBlobKeys(ctx)
		if want := []string{e1.Artifacts[2].BlobKey, e1.Artifacts[1].BlobKey, e1.Artifacts[0].BlobKey}; err != nil || !reflect.DeepEqual(keys, want) {
			t.Errorf("ArtifactBlobKeys = %q, %v; want %q", keys, err, want)
		}
	})
}

// TestExportWithoutQueue: the DB's export store, which has no queue,
// refuses an export whose webhook delivery is due, and keeps nothing of
// it; one with nothing to deliver goes through.
func TestExportWithoutQueue(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		hooks := openQueue(t, db).Webhooks()
		if err := hooks.SaveWebhook(ctx, &webhook.Config{AccountID: "a1", URL: "https://hooks.example/a1", Enabled: true,
			Secret: "whsec_x", CreatedAt: storeT0, UpdatedAt: storeT0}); err != nil {
			t.Fatal(err)
		}
		run := project.RunCount{Pool: "account:a1", Day: exportDay, Cap: 5}
		if _, err := db.Exports().CreateExport(ctx, testExport(1, "a1", storeT0, "lms"), run, true); !errors.Is(err, sqlstore.ErrNoQueue) {
			t.Fatalf("notify without a queue: %v, want ErrNoQueue", err)
		}
		_, err := db.Exports().Export(ctx, "a1", uuidOf(1))
		mustKind(t, err, apperr.NotFound)
		if used, err := db.Exports().CreateExport(ctx, testExport(2, "a1", storeT0, "lms"), run, false); err != nil || used != 1 {
			t.Errorf("no notify: used %d, %v", used, err)
		}
	})
}

// TestExportPoolAcrossNodes: exports racing on two nodes (two handles
// on one SQLite file, two pools on one PostgreSQL database) for the same
// pool never pass its cap.
func TestExportPoolAcrossNodes(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			seedAccountRows(t, nodes[0], "a1")
			stores := []*sqlstore.ExportStore{openQueue(t, nodes[0]).Exports(), openQueue(t, nodes[1]).Exports()}
			const tries, capacity = 12, 5
			errs := make([]error, tries)
			var wg sync.WaitGroup
			for i := range tries {
				wg.Go(func() {
					_, errs[i] = stores[i%2].CreateExport(ctx, testExport(i+1, "a1", storeT0, "lms"),
						project.RunCount{Pool: "account:a1", Day: exportDay, Cap: capacity}, true)
				})
			}
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, project.ErrPoolFull):
					t.Errorf("export %d: %v", i, err)
				}
			}
			used, err := nodes[1].Quotas().Used(ctx, "account:a1", exportDay)
			if ok != capacity || err != nil || used != capacity {
				t.Errorf("%d exports made, pool at %d (%v); want %d", ok, used, err, capacity)
			}
		})
	}
}
