package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/webhook"
)

// The fixtures of the projects, exports, uploads, video jobs, queue and
// webhook tests. (The account tests' fixtures and assertions are in
// helpers_test.go; these have names of their own.)

// storeT0 is the tests' base time, whole seconds.
var storeT0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// exportDay is the tests' pool day (UTC midnight).
var exportDay = time.Date(2026, 5, 6, 0, 0, 0, 0, time.UTC)

// uuidOf is the uuid whose last group is n.
func uuidOf(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// seedAccountRows inserts bare accounts with these ids, by SQL: the
// stores under test only need the rows their foreign keys and locks
// name.
func seedAccountRows(t testing.TB, db *sqlstore.DB, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if _, err := db.Exec(context.Background(), `INSERT INTO accounts(id, email, tier, daily_cap, created_at)
			VALUES($1, $2, 'pro', 100, $3)`, id, id+"@example.test", db.Ts(storeT0)); err != nil {
			t.Fatalf("seed account %s: %v", id, err)
		}
	}
}

// mustKind fails the test unless err has kind want; Internal means no
// error at all.
func mustKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if got := apperr.KindOf(err); got != want || (want != apperr.Internal && err == nil) {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
	if want == apperr.Internal && err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// countRows returns the single integer a query selects.
func countRows(t testing.TB, db *sqlstore.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// pollUntil polls cond until it holds, failing the test with what after
// a bound.
func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// openQueue opens a queue that only inserts.
func openQueue(t testing.TB, db *sqlstore.DB) *sqlstore.Queue {
	t.Helper()
	q, err := db.OpenQueue(context.Background(), jobs.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// startQueue opens and starts a queue on db polling every 100 ms,
// stopped when the test ends.
func startQueue(t testing.TB, db *sqlstore.DB, opts jobs.QueueOptions) *sqlstore.Queue {
	t.Helper()
	if opts.PollInterval == 0 {
		opts.PollInterval = 100 * time.Millisecond
	}
	q, err := db.OpenQueue(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return q
}

// testProject is project n of the account, created at.
func testProject(n int, accountID string, created time.Time) *project.Project {
	return &project.Project{ID: uuidOf(n), AccountID: accountID, Name: fmt.Sprintf("p%d", n), CreatedAt: created, UpdatedAt: created}
}

// testExport is export n of the account with one artifact per preset,
// created at (kept in whole seconds).
func testExport(n int, accountID string, at time.Time, presets ...string) *project.Export {
	e := &project.Export{ID: uuidOf(n), AccountID: accountID, ProjectID: uuidOf(1000 + n), IRRevision: 3, CreatedAt: at}
	for i, p := range presets {
		e.Artifacts = append(e.Artifacts, project.Artifact{ID: uuidOf(100*n + i), ExportID: e.ID, AccountID: accountID,
			Preset: p, BlobKey: "artifacts/" + e.ID + "/" + p + ".vtt", Filename: "x-" + p + ".vtt",
			ContentType: "text/vtt", Bytes: int64(10 + i), SHA256: "00ff", CreatedAt: at})
	}
	return e
}

// testUpload is a pending multipart session of 3 parts in project p1,
// its URLs ending an hour after created.
func testUpload(n int, accountID string, created time.Time) *media.Session {
	id := uuidOf(n)
	return &media.Session{ID: id, AccountID: accountID, ProjectID: "p1", ObjectKey: media.MediaPrefix + id,
		Filename: "clip.mp4", ContentType: "video/mp4", Bytes: 40 << 20, Multipart: true, PartSize: media.MinPartSize,
		PartCount: 3, Status: media.Pending, CreatedAt: created, ExpiresAt: created.Add(time.Hour)}
}

// testJob is video job n of the account: a sidecar render (the light
// lane) of project p1, created at, counted in the account's pool.
func testJob(n int, accountID string, at time.Time) *video.Job {
	return &video.Job{ID: uuidOf(n), AccountID: accountID, ProjectID: "p1", Kind: video.KindRender, Mode: video.ModeSidecar,
		Preset: "lms", OutputDelivery: video.DeliveryInline, Container: "mp4", SubtitleCodec: "mov_text", Language: "eng",
		IRRevision: 1, TrackIndex: -1, Status: video.Queued, Run: 1, CreatedAt: at, Pool: "account:" + accountID,
		PoolDay: exportDay}
}

// testDelivery is delivery n of the account, a test event created at.
func testDelivery(n int, accountID string, at time.Time) *webhook.Delivery {
	return &webhook.Delivery{ID: uuidOf(n), AccountID: accountID, Event: webhook.EventTest, Body: []byte(`{"n":1}`),
		Status: webhook.Pending, CreatedAt: at, WindowStart: at, NextAttemptAt: at, Run: 1}
}

// column returns the one column of query's rows.
func column[T any](t *testing.T, db *sqlstore.DB, query string, args ...any) []T {
	t.Helper()
	rows, err := db.Query(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
