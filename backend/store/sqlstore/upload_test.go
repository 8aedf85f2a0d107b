package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// wantUploadConflict fails the test unless err is the conflict of a
// session no longer open.
func wantUploadConflict(t *testing.T, name string, err error) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Conflict || e.Details["reason"] != "upload_completed" {
		t.Errorf("%s: %v; want conflict upload_completed", name, err)
	}
}

// TestUploadStore covers what the conformance suite leaves out: a part
// for an unknown or an expired session is refused as for a finished
// one; a single-PUT session reads back with an empty list of parts, not
// nil, and a listing carries no parts.
func TestUploadStore(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a")
		s := db.Uploads()
		multi := testUpload(1, "a", storeT0)
		single := testUpload(2, "a", storeT0.Add(time.Second))
		single.Multipart, single.PartCount, single.Bytes = false, 1, 1000
		for _, u := range []*media.Session{multi, single} {
			if err := s.CreateUpload(ctx, u, 3, storeT0); err != nil {
				t.Fatalf("create %s: %v", u.ID, err)
			}
		}
		if err := s.RecordPart(ctx, multi.ID, media.Part{Number: 1, Bytes: 16, ETag: "e1"}); err != nil {
			t.Fatal(err)
		}
		wantUploadConflict(t, "part of an unknown session", s.RecordPart(ctx, uuidOf(99), media.Part{Number: 1, ETag: "x"}))

		if got, err := s.Upload(ctx, "a", single.ID); err != nil || got.Received == nil || len(got.Received) != 0 || got.Multipart {
			t.Errorf("single = %+v, %v; want single PUT, no parts", got, err)
		}
		list, err := s.ListUploads(ctx, "a", "p1", 10)
		if err != nil || len(list) != 2 || list[1].ID != multi.ID || list[1].Received != nil {
			t.Errorf("list = %+v, %v; want both, without parts", list, err)
		}

		if err := s.ExpireUpload(ctx, multi.ID); err != nil {
			t.Fatal(err)
		}
		wantUploadConflict(t, "part after expiry", s.RecordPart(ctx, multi.ID, media.Part{Number: 2, Bytes: 1, ETag: "y"}))
	})
}

// TestUploadStoreRaces: creators on two nodes (two handles on one
// SQLite file, two pools on one PostgreSQL database) stay within
// maxOpen, and parts racing a finish on another node are either
// forgotten with the others or refused, never left behind.
func TestUploadStoreRaces(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			seedAccountRows(t, nodes[0], "a")
			const maxOpen, tries = 3, 10
			var wg sync.WaitGroup
			errs := make([]error, tries)
			for i := range tries {
				wg.Go(func() {
					errs[i] = nodes[i%2].Uploads().CreateUpload(ctx, testUpload(i+1, "a", storeT0), maxOpen, storeT0)
				})
			}
			wg.Wait()
			var open []int
			for i, err := range errs {
				switch {
				case err == nil:
					open = append(open, i+1)
				case !errors.Is(err, media.ErrTooManyOpen):
					t.Errorf("create %d: %v", i+1, err)
				}
			}
			if len(open) != maxOpen {
				t.Fatalf("%d created; want %d", len(open), maxOpen)
			}

			u := testUpload(open[0], "a", storeT0)
			const parts = 40
			partErrs := make([]error, parts)
			var finishErr error
			for i := range parts {
				wg.Go(func() {
					partErrs[i] = nodes[i%2].Uploads().RecordPart(ctx, u.ID, media.Part{Number: i + 1, Bytes: 1, ETag: "e"})
				})
				if i == parts/2 {
					wg.Go(func() {
						done := *u
						done.Status, done.CompletedAt = media.Rejected, storeT0
						finishErr = nodes[1].Uploads().FinishUpload(ctx, &done)
					})
				}
			}
			wg.Wait()
			if finishErr != nil {
				t.Fatalf("finish: %v", finishErr)
			}
			for i, err := range partErrs {
				if err != nil {
					wantUploadConflict(t, fmt.Sprintf("part %d", i+1), err)
				}
			}
			if left := countRows(t, nodes[0], `SELECT count(*) FROM upload_parts WHERE upload_id = $1`, u.ID); left != 0 {
				t.Errorf("%d parts left behind a finished session", left)
			}
		})
	}
}
