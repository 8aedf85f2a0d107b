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

// stored is e as the store returns it: times in UTC whole seconds.
func stored(e *project.Export) *project.Export {
	c := *e
	c.CreatedAt = second(e.CreatedAt)
	c.Artifacts = nil
	for _, a := range e.Artifacts {
		a.CreatedAt = second(a.CreatedAt)
		c.Artifacts = append(c.Artifacts, a)
	}
	return &c
}

func TestExportStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a1", "a2")
	s := openQueue(t, db).Exports()
	at := time.Date(2026, 5, 6, 9, 0, 0, 700_000_000, time.FixedZone("CET", 3600))
	pool := project.RunCount{Pool: "account:a1", Day: exportDay, Cap: 2}
	// Inserted out of preset order: Export keeps the order of insertion.
	e1 := testExport(1, "a1", at, "srt", "lms", "broadcast")
	for _, tc := range []struct {
		name     string
		e        *project.Export
		count    project.RunCount
		want     string // "ok", "pool full", "not found" or "error"
		wantUsed int    // when ok
	}{
		{"first", e1, pool, "ok", 1},
		{"no artifacts", testExport(2, "a1", at), pool, "ok", 2},
		{"pool full", testExport(3, "a1", at, "lms"), pool, "pool full", 0},
		{"unknown account", testExport(4, "nobody", at, "lms"), project.RunCount{Pool: "account:nobody", Day: exportDay, Cap: 5}, "not found", 0},
		{"blob key taken", &project.Export{ID: idN(5), AccountID: "a2", ProjectID: idN(6), IRRevision: 1, CreatedAt: at,
			Artifacts: []project.Artifact{{ID: idN(7), ExportID: idN(5), AccountID: "a2", Preset: "lms", BlobKey: e1.Artifacts[0].BlobKey,
				Filename: "f", ContentType: "text/vtt", CreatedAt: at}}}, project.RunCount{Pool: "account:a2", Day: exportDay, Cap: 5}, "error", 0},
	} {
		used, err := s.CreateExport(ctx, tc.e, tc.count, false)
		switch tc.want {
		case "ok":
			checkKind(t, err, apperr.Internal)
		case "pool full":
			if !errors.Is(err, project.ErrPoolFull) {
				t.Fatalf("%s: got %v, want ErrPoolFull", tc.name, err)
			}
		case "not found":
			checkKind(t, err, apperr.NotFound)
		default:
			if err == nil {
				t.Fatalf("%s: no error", tc.name)
			}
		}
		if tc.want == "ok" && used != tc.wantUsed {
			t.Errorf("%s: used %d, want %d", tc.name, used, tc.wantUsed)
		}
		_, gerr := s.Export(ctx, tc.e.AccountID, tc.e.ID)
		if inserted := gerr == nil; inserted != (tc.want == "ok") {
			t.Errorf("%s: inserted %v (%v)", tc.name, inserted, gerr)
		}
	}
	// What failed took no run: the transaction rolled the count back.
	for pool, want := range map[string]int{"account:a1": 2, "account:nobody": 0, "account:a2": 0} {
		if got, err := db.Quotas().Used(ctx, pool, exportDay); err != nil || got != want {
			t.Errorf("pool %s: used %d (%v), want %d", pool, got, err, want)
		}
	}

	got, err := s.Export(ctx, "a1", e1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := stored(e1); !reflect.DeepEqual(got, want) {
		t.Errorf("Export:\n got %+v\nwant %+v", got, want)
	}
	if got, err := s.Export(ctx, "a1", idN(2)); err != nil || got.Artifacts != nil {
		t.Errorf("export without artifacts: %+v, %v", got, err)
	}
	_, err = s.Export(ctx, "a2", e1.ID)
	checkKind(t, err, apperr.NotFound)

	a := stored(e1).Artifacts[1]
	for _, tc := range []struct {
		name     string
		get      func() (*project.Artifact, error)
		wantKind apperr.Kind
	}{
		{"owner", func() (*project.Artifact, error) { return s.Artifact(ctx, "a1", a.ID) }, apperr.Internal},
		{"other account", func() (*project.Artifact, error) { return s.Artifact(ctx, "a2", a.ID) }, apperr.NotFound},
		{"by id", func() (*project.Artifact, error) { return s.ArtifactByID(ctx, a.ID) }, apperr.Internal},
		{"unknown", func() (*project.Artifact, error) { return s.ArtifactByID(ctx, idN(999)) }, apperr.NotFound},
	} {
		got, err := tc.get()
		checkKind(t, err, tc.wantKind)
		if err == nil && !reflect.DeepEqual(*got, a) {
			t.Errorf("%s: got %+v, want %+v", tc.name, *got, a)
		}
	}

	keys, err := s.ArtifactBlobKeys(ctx)
	if want := []string{e1.Artifacts[2].BlobKey, e1.Artifacts[1].BlobKey, e1.Artifacts[0].BlobKey}; err != nil || !reflect.DeepEqual(keys, want) {
		t.Errorf("ArtifactBlobKeys = %q, %v; want %q", keys, err, want)
	}
	for _, tc := range []struct {
		keys []string
		want map[string]bool
	}{
		{nil, map[string]bool{}},
		{[]string{e1.Artifacts[0].BlobKey, "artifacts/orphan"}, map[string]bool{e1.Artifacts[0].BlobKey: true}},
	} {
		known, err := db.Exports().KnownBlobs(ctx, tc.keys)
		if err != nil || !reflect.DeepEqual(known, tc.want) {
			t.Errorf("KnownBlobs(%q) = %v, %v; want %v", tc.keys, known, err, tc.want)
		}
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
