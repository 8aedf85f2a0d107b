package postgres

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

// testUpload is a pending multipart session of 3 parts in project p1,
// its URLs ending an hour after created.
func testUpload(n int, accountID string, created time.Time) *media.Session {
	id := idN(n)
	return &media.Session{ID: id, AccountID: accountID, ProjectID: "p1", ObjectKey: media.MediaPrefix + id,
		Filename: "clip.mp4", ContentType: "video/mp4", Bytes: 40 << 20, Multipart: true, PartSize: media.MinPartSize,
		PartCount: 3, Status: media.Pending, CreatedAt: created, ExpiresAt: created.Add(time.Hour)}
}

// wantUploadConflict fails the test unless err is the conflict of a
// session no longer open.
func wantUploadConflict(t *testing.T, name string, err error) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Conflict || e.Details["reason"] != "upload_completed" {
		t.Errorf("%s: %v; want conflict upload_completed", name, err)
	}
}

func TestUploadStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a", "b")
	s := db.Uploads()

	first := testUpload(1, "a", projT0.Add(200*time.Millisecond)) // kept in whole seconds
	single := testUpload(2, "a", projT0.Add(time.Second))
	single.Multipart, single.PartCount, single.Bytes = false, 1, 1000
	other := testUpload(3, "a", projT0.Add(2*time.Second))
	other.ProjectID = "p2"
	for _, u := range []*media.Session{first, single, other} {
		if err := s.CreateUpload(ctx, u, 3, projT0); err != nil {
			t.Fatalf("create %s: %v", u.ID, err)
		}
	}
	checkKind(t, s.CreateUpload(ctx, testUpload(9, "nobody", projT0), 3, projT0), apperr.NotFound)

	// The limit counts pending sessions whose URLs end after openAfter.
	for _, tc := range []struct {
		name      string
		n         int
		maxOpen   int
		openAfter time.Time
		refused   bool
	}{
		{"three open at max 3", 13, 3, projT0, true},
		{"three open at max 4", 14, 4, projT0, false},
		{"URLs ended", 16, 4, projT0.Add(2 * time.Hour), false},
	} {
		err := s.CreateUpload(ctx, testUpload(tc.n, "a", projT0), tc.maxOpen, tc.openAfter)
		if got := errors.Is(err, media.ErrTooManyOpen); got != tc.refused || (!tc.refused && err != nil) {
			t.Errorf("%s: %v; want refused %v", tc.name, err, tc.refused)
		}
	}

	// Parts arrive in any order, a part sent again replaces the first.
	for _, p := range []media.Part{{Number: 2, Bytes: 16, ETag: "e2"}, {Number: 1, Bytes: 16, ETag: "old"}, {Number: 1, Bytes: 17, ETag: "e1"}} {
		if err := s.RecordPart(ctx, first.ID, p); err != nil {
			t.Fatalf("part %d: %v", p.Number, err)
		}
	}
	wantUploadConflict(t, "part of an unknown session", s.RecordPart(ctx, idN(99), media.Part{Number: 1, ETag: "x"}))

	wantParts := []media.Part{{Number: 1, Bytes: 17, ETag: "e1"}, {Number: 2, Bytes: 16, ETag: "e2"}}
	want := *first
	want.CreatedAt, want.ExpiresAt = projT0, projT0.Add(time.Hour)
	want.Received = wantParts
	for _, tc := range []struct {
		name string
		get  func() (*media.Session, error)
		kind apperr.Kind
	}{
		{"by account", func() (*media.Session, error) { return s.Upload(ctx, "a", first.ID) }, apperr.Internal},
		{"by id", func() (*media.Session, error) { return s.UploadByID(ctx, first.ID) }, apperr.Internal},
		{"by key", func() (*media.Session, error) { return s.UploadByKey(ctx, "a", first.ObjectKey) }, apperr.Internal},
		{"another account's", func() (*media.Session, error) { return s.Upload(ctx, "b", first.ID) }, apperr.NotFound},
		{"another account's key", func() (*media.Session, error) { return s.UploadByKey(ctx, "b", first.ObjectKey) }, apperr.NotFound},
		{"unknown id", func() (*media.Session, error) { return s.UploadByID(ctx, idN(99)) }, apperr.NotFound},
	} {
		got, err := tc.get()
		if apperr.KindOf(err) != tc.kind || (tc.kind != apperr.Internal) != (err != nil) {
			t.Errorf("%s: %v; want kind %s", tc.name, err, tc.kind.Code())
			continue
		}
		if err == nil && !reflect.DeepEqual(*got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, *got, want)
		}
	}
	if got, err := s.Upload(ctx, "a", single.ID); err != nil || got.Received == nil || len(got.Received) != 0 || got.Multipart {
		t.Errorf("single = %+v, %v; want single PUT, no parts", got, err)
	}

	list, err := s.ListUploads(ctx, "a", "p1", 10)
	if err != nil || len(list) != 4 || list[0].ID != single.ID || list[1].ID != idN(16) || list[2].ID != idN(14) || list[3].ID != first.ID || list[3].Received != nil {
		t.Errorf("list = %+v, %v; want newest first (ties by id), without parts", list, err)
	}
	if list, err := s.ListUploads(ctx, "a", "p1", 1); err != nil || len(list) != 1 {
		t.Errorf("list of 1 = %+v, %v", list, err)
	}
	if list, err := s.ListUploads(ctx, "b", "p1", 10); err != nil || len(list) != 0 {
		t.Errorf("b's list = %+v, %v", list, err)
	}

	// Finishing: completed with its probe, rejected with its reason; the
	// parts are forgotten and the session takes no more.
	done := *first
	done.Status, done.CompletedAt, done.MediaExpiresAt = media.Completed, projT0.Add(time.Minute), projT0.Add(25*time.Hour)
	done.Probe = &media.Probe{Container: "mp4", FormatName: "mov,mp4", DurationSeconds: 12.5,
		Streams: []media.Stream{{Index: 0, Type: "video", Codec: "h264", Width: 640, Height: 360, FrameRate: 25}}}
	if err := s.FinishUpload(ctx, &done); err != nil {
		t.Fatal(err)
	}
	wantUploadConflict(t, "finish again", s.FinishUpload(ctx, &done))
	wantUploadConflict(t, "part after finish", s.RecordPart(ctx, first.ID, media.Part{Number: 3, Bytes: 1, ETag: "e3"}))
	got, err := s.Upload(ctx, "a", first.ID)
	if err != nil || got.Status != media.Completed || len(got.Received) != 0 || !reflect.DeepEqual(got.Probe, done.Probe) ||
		!got.CompletedAt.Equal(done.CompletedAt) || !got.MediaExpiresAt.Equal(done.MediaExpiresAt) || got.RejectReason != "" {
		t.Errorf("completed = %+v, %v", got, err)
	}
	rejected := *single
	rejected.Status, rejected.CompletedAt, rejected.RejectReason = media.Rejected, projT0.Add(time.Minute), "unreadable"
	if err := s.FinishUpload(ctx, &rejected); err != nil {
		t.Fatal(err)
	}
	if got, err := s.UploadByID(ctx, single.ID); err != nil || got.Status != media.Rejected || got.RejectReason != "unreadable" ||
		got.Probe != nil || !got.MediaExpiresAt.IsZero() {
		t.Errorf("rejected = %+v, %v", got, err)
	}

	// Due: rejected at once; pending once their URLs ended grace ago;
	// completed once past retention.
	grace := time.Hour
	for _, tc := range []struct {
		name string
		now  time.Time
		want []string
	}{
		{"at creation", projT0, []string{single.ID}},
		{"URLs ended within grace", projT0.Add(2 * time.Hour), []string{single.ID}},
		{"URLs ended past grace", projT0.Add(3 * time.Hour), []string{single.ID, other.ID, idN(14), idN(16)}},
		{"past retention", projT0.Add(25 * time.Hour), []string{first.ID, single.ID, other.ID, idN(14), idN(16)}},
	} {
		due, err := s.DueUploads(ctx, tc.now, grace, 10)
		var ids []string
		for _, u := range due {
			ids = append(ids, u.ID)
		}
		slices.Sort(ids) // due sessions come in no set order
		if err != nil || fmt.Sprint(ids) != fmt.Sprint(tc.want) {
			t.Errorf("%s: due %v, %v; want %v", tc.name, ids, err, tc.want)
		}
	}
	if due, err := s.DueUploads(ctx, projT0.Add(25*time.Hour), grace, 2); err != nil || len(due) != 2 {
		t.Errorf("due with limit 2 = %d, %v", len(due), err)
	}

	// Expiring marks the session and forgets its parts; it is no longer
	// due.
	if err := s.RecordPart(ctx, other.ID, media.Part{Number: 1, Bytes: 1, ETag: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ExpireUpload(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Upload(ctx, "a", other.ID); err != nil || got.Status != media.Expired || len(got.Received) != 0 {
		t.Errorf("expired = %+v, %v", got, err)
	}
	wantUploadConflict(t, "part after expiry", s.RecordPart(ctx, other.ID, media.Part{Number: 2, Bytes: 1, ETag: "y"}))
	if due, _ := s.DueUploads(ctx, projT0.Add(3*time.Hour), grace, 10); len(due) != 3 {
		t.Errorf("due after expiry = %+v; want the rejected and the two other pending ones", due)
	}
}

// TestUploadStoreRaces: creators on two nodes stay within maxOpen, and
// parts racing a finish on another node are either forgotten with the
// others or refused, never left behind.
func TestUploadStoreRaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 2, nil)
	seedAccounts(t, nodes[0], "a")
	const maxOpen, tries = 3, 10
	var wg sync.WaitGroup
	errs := make([]error, tries)
	for i := range tries {
		wg.Go(func() {
			errs[i] = nodes[i%2].Uploads().CreateUpload(ctx, testUpload(i+1, "a", projT0), maxOpen, projT0)
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

	u := testUpload(open[0], "a", projT0)
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
				done.Status, done.CompletedAt = media.Rejected, projT0
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
	var left int
	if err := nodes[0].pool.QueryRow(ctx, `SELECT count(*) FROM upload_parts WHERE upload_id = $1`, u.ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d parts left behind a finished session (%v)", left, err)
	}
}
