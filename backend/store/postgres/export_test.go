package postgres

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/webhook"
)

// exportDay is the tests' pool day (UTC midnight).
var exportDay = time.Date(2026, 5, 6, 0, 0, 0, 0, time.UTC)

// testExport is export n of the account with one artifact per preset,
// created at (kept in whole seconds).
func testExport(n int, accountID string, at time.Time, presets ...string) *project.Export {
	e := &project.Export{ID: idN(n), AccountID: accountID, ProjectID: idN(1000 + n), IRRevision: 3, CreatedAt: at}
	for i, p := range presets {
		e.Artifacts = append(e.Artifacts, project.Artifact{ID: idN(100*n + i), ExportID: e.ID, AccountID: accountID,
			Preset: p, BlobKey: "artifacts/" + e.ID + "/" + p + ".vtt", Filename: "x-" + p + ".vtt",
			ContentType: "text/vtt", Bytes: int64(10 + i), SHA256: "00ff", CreatedAt: at})
	}
	return e
}

// TestExportStore covers what only this adapter has or does beyond the
// conformance suite: Export reads an export back with its artifacts in
// the order they were inserted; an insert that fails after the run was
// taken (a blob key already taken) rolls the run back; ArtifactBlobKeys
// lists every key in byte order.
func TestExportStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1", "a2")
	s := db.Exports()
	count := func(accountID string) project.RunCount {
		return project.RunCount{Pool: "account:" + accountID, Day: exportDay, Cap: 5}
	}
	// Inserted out of preset order: Export keeps the order of insertion.
	e1 := testExport(1, "a1", projT0, "srt", "lms", "broadcast")
	if _, err := s.CreateExport(ctx, e1, count("a1"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateExport(ctx, testExport(2, "a1", projT0), count("a1"), false); err != nil {
		t.Fatal(err)
	}
	taken := &project.Export{ID: idN(5), AccountID: "a2", ProjectID: idN(6), IRRevision: 1, CreatedAt: projT0,
		Artifacts: []project.Artifact{{ID: idN(7), ExportID: idN(5), AccountID: "a2", Preset: "lms", BlobKey: e1.Artifacts[0].BlobKey,
			Filename: "f", ContentType: "text/vtt", CreatedAt: projT0}}}
	if _, err := s.CreateExport(ctx, taken, count("a2"), false); err == nil {
		t.Error("an artifact's blob key taken: no error")
	}
	_, err := s.Export(ctx, "a2", taken.ID)
	checkKind(t, err, apperr.NotFound)
	if used, err := db.Quotas().Used(ctx, "account:a2", exportDay); err != nil || used != 0 {
		t.Errorf("pool of the failed export: used %d (%v), want 0", used, err)
	}

	got, err := s.Export(ctx, "a1", e1.ID)
	if err != nil || !reflect.DeepEqual(got, e1) {
		t.Errorf("Export:\n got %+v\nwant %+v (%v)", got, e1, err)
	}
	if got, err := s.Export(ctx, "a1", idN(2)); err != nil || got.Artifacts != nil {
		t.Errorf("export without artifacts: %+v, %v", got, err)
	}
	_, err = s.Export(ctx, "a2", e1.ID)
	checkKind(t, err, apperr.NotFound)

	keys, err := s.ArtifactBlobKeys(ctx)
	if want := []string{e1.Artifacts[2].BlobKey, e1.Artifacts[1].BlobKey, e1.Artifacts[0].BlobKey}; err != nil || !reflect.DeepEqual(keys, want) {
		t.Errorf("ArtifactBlobKeys = %q, %v; want %q", keys, err, want)
	}
}

// TestExportWithoutQueue: the DB's export store, which has no queue,
// refuses an export whose webhook delivery is due, and keeps nothing of
// it; one with nothing to deliver goes through.
func TestExportWithoutQueue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1")
	hooks := openQueue(t, db).Webhooks()
	if err := hooks.SaveWebhook(ctx, &webhook.Config{AccountID: "a1", URL: "https://hooks.example/a1", Enabled: true,
		Secret: "whsec_x", CreatedAt: projT0, UpdatedAt: projT0}); err != nil {
		t.Fatal(err)
	}
	count := project.RunCount{Pool: "account:a1", Day: exportDay, Cap: 5}
	if _, err := db.Exports().CreateExport(ctx, testExport(1, "a1", projT0, "lms"), count, true); !errors.Is(err, ErrNoQueue) {
		t.Fatalf("notify without a queue: %v, want ErrNoQueue", err)
	}
	_, err := db.Exports().Export(ctx, "a1", idN(1))
	checkKind(t, err, apperr.NotFound)
	if used, err := db.Exports().CreateExport(ctx, testExport(2, "a1", projT0, "lms"), count, false); err != nil || used != 1 {
		t.Errorf("no notify: used %d, %v", used, err)
	}
}

// TestExportPoolAcrossNodes: exports racing on two nodes for the same
// pool never pass its cap.
func TestExportPoolAcrossNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 2, nil)
	seedAccounts(t, nodes[0], "a1")
	stores := []*ExportStore{openQueue(t, nodes[0]).Exports(), openQueue(t, nodes[1]).Exports()}
	const tries, capacity = 12, 5
	errs := make([]error, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = stores[i%2].CreateExport(ctx, testExport(i+1, "a1", projT0, "lms"),
				project.RunCount{Pool: "account:a1", Day: exportDay, Cap: capacity}, true)
		}()
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
}
