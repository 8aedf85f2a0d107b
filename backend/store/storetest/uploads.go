package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

func uploadScenarios() []scenario {
	return []scenario{
		{"max open", uploadMaxOpen},
		{"read and list", uploadRead},
		{"parts and finish", uploadFinish},
		{"due and expire", uploadDue},
	}
}

// newUpload returns pending session n of the account in project p, made
// at the clock's time, its URLs ending after urls.
func (e *env) newUpload(n int, accountID, projectID string, urls time.Duration) *media.Session {
	id := uuidN(n)
	return &media.Session{ID: id, AccountID: accountID, ProjectID: projectID, ObjectKey: media.MediaPrefix + id,
		Filename: fmt.Sprintf("clip-%d.mp4", n), ContentType: "video/mp4", Bytes: 40 << 20, Multipart: true,
		PartSize: media.MinPartSize, PartCount: 3, Status: media.Pending, CreatedAt: e.now(), ExpiresAt: e.now().Add(urls)}
}

// upload creates the session with room for 100 open ones.
func (e *env) upload(u *media.Session) *media.Session {
	e.t.Helper()
	if err := e.db.Uploads().CreateUpload(e.ctx, u, 100, e.now()); err != nil {
		e.t.Fatalf("create upload: %v", err)
	}
	return u
}

// finish completes the session at the clock's time, its media kept for
// keep.
func (e *env) finish(u *media.Session, keep time.Duration) {
	e.t.Helper()
	done := *u
	done.Status, done.CompletedAt, done.MediaExpiresAt = media.Completed, e.now(), e.now().Add(keep)
	done.Probe = &media.Probe{Container: "mp4", DurationSeconds: 2}
	if err := e.db.Uploads().FinishUpload(e.ctx, &done); err != nil {
		e.t.Fatalf("finish upload: %v", err)
	}
}

// uploadMaxOpen: pending sessions whose URLs end after openAfter count
// towards maxOpen; ended, finished and other accounts' ones do not.
func uploadMaxOpen(e *env) {
	t, s := e.t, e.db.Uploads()
	a, b := e.account(1), e.account(2)
	p := uuidN(500)
	must(t, s.CreateUpload(e.ctx, e.newUpload(1, a.ID, p, 0), 2, e.now())) // its URLs end now
	e.upload(e.newUpload(2, b.ID, p, time.Hour))
	steps := []struct {
		name string
		u    *media.Session
		want apperr.Kind
		full bool // want ErrTooManyOpen
	}{
		{"first open", e.newUpload(3, a.ID, p, time.Hour), none, false},
		{"second open", e.newUpload(4, a.ID, p, time.Hour), none, false},
		{"third at max 2", e.newUpload(5, a.ID, p, time.Hour), none, true},
		{"unknown account", e.newUpload(6, uuidN(99), p, time.Hour), apperr.NotFound, false},
	}
	for _, st := range steps {
		err := s.CreateUpload(e.ctx, st.u, 2, e.now())
		switch {
		case st.full:
			if !errors.Is(err, media.ErrTooManyOpen) {
				t.Errorf("%s: %v; want ErrTooManyOpen", st.name, err)
			}
		case !kindIs(err, st.want):
			t.Errorf("%s: %v; want %s", st.name, err, st.want.Code())
		}
	}
	_, err := s.UploadByID(e.ctx, uuidN(5))
	wantKind(t, err, apperr.NotFound)

	// A finished session frees its place.
	e.finish(e.newUpload(3, a.ID, p, time.Hour), time.Hour)
	must(t, s.CreateUpload(e.ctx, e.newUpload(5, a.ID, p, time.Hour), 2, e.now()))
}

func uploadRead(e *env) {
	t, s := e.t, e.db.Uploads()
	a, b := e.account(1), e.account(2)
	p, q := uuidN(500), uuidN(501)
	first := e.upload(e.newUpload(1, a.ID, p, time.Hour))
	e.clock.Advance(time.Second)
	e.upload(e.newUpload(2, a.ID, q, time.Hour))
	e.clock.Advance(time.Second)
	// 4, then 3 in the same second: the later one lists first whatever
	// the ids' order.
	e.upload(e.newUpload(4, a.ID, p, time.Hour))
	e.upload(e.newUpload(3, a.ID, p, time.Hour))

	reads := []struct {
		name string
		get  func() (*media.Session, error)
		want apperr.Kind
	}{
		{"own", func() (*media.Session, error) { return s.Upload(e.ctx, a.ID, first.ID) }, none},
		{"by id", func() (*media.Session, error) { return s.UploadByID(e.ctx, first.ID) }, none},
		{"by key", func() (*media.Session, error) { return s.UploadByKey(e.ctx, a.ID, first.ObjectKey) }, none},
		{"another account's", func() (*media.Session, error) { return s.Upload(e.ctx, b.ID, first.ID) }, apperr.NotFound},
		{"another account's key", func() (*media.Session, error) { return s.UploadByKey(e.ctx, b.ID, first.ObjectKey) }, apperr.NotFound},
		{"unknown", func() (*media.Session, error) { return s.UploadByID(e.ctx, uuidN(99)) }, apperr.NotFound},
	}
	for _, tt := range reads {
		got, err := tt.get()
		if !kindIs(err, tt.want) {
			t.Errorf("%s: %v; want %s", tt.name, err, tt.want.Code())
			continue
		}
		if err == nil && !sameUpload(got, first) {
			t.Errorf("%s: %+v\nwant %+v", tt.name, got, first)
		}
	}

	list, err := s.ListUploads(e.ctx, a.ID, p, 2)
	must(t, err)
	if len(list) != 2 || list[0].ID != uuidN(3) || list[1].ID != uuidN(4) {
		t.Errorf("ListUploads(limit 2) = %v; want uploads 3, 4 (newest first, project p only)", uploadIDs(list))
	}
	if list, err := s.ListUploads(e.ctx, b.ID, p, 10); err != nil || len(list) != 0 {
		t.Errorf("another account's list = %v, %v", uploadIDs(list), err)
	}
}

// uploadFinish: parts are recorded and replaced while pending; finishing
// completes or rejects once and forgets the parts.
func uploadFinish(e *env) {
	t, s := e.t, e.db.Uploads()
	a := e.account(1)
	u := e.upload(e.newUpload(1, a.ID, uuidN(500), time.Hour))
	rejected := e.upload(e.newUpload(2, a.ID, uuidN(500), time.Hour))
	parts := []media.Part{{Number: 2, Bytes: 5, ETag: "b2"}, {Number: 1, Bytes: 7, ETag: "a1"}, {Number: 1, Bytes: 9, ETag: "a1x"}}
	for _, p := range parts {
		must(t, s.RecordPart(e.ctx, u.ID, p))
	}
	got, err := s.Upload(e.ctx, a.ID, u.ID)
	must(t, err)
	if want := []media.Part{parts[2], parts[0]}; !slices.Equal(got.Received, want) {
		t.Errorf("received %+v; want %+v (by number, the resent part replacing the first)", got.Received, want)
	}

	e.clock.Advance(time.Minute)
	done := *u
	done.Status, done.CompletedAt, done.MediaExpiresAt = media.Completed, e.now(), e.now().Add(media.Retention)
	done.Probe = &media.Probe{Container: "mp4", FormatName: "mov,mp4,m4a,3gp,3g2,mj2", DurationSeconds: 12.5,
		ClosedCaptions: true, Streams: []media.Stream{
			{Index: 0, Type: "video", Codec: "h264", Width: 1280, Height: 720, FrameRate: 25, Default: true},
			{Index: 1, Type: "audio", Codec: "aac", Language: "eng", Channels: 2},
			{Index: 2, Type: "subtitle", Codec: "mov_text", Language: "fra", SubtitleIndex: 0, Text: true, Title: "Français"},
		}}
	must(t, s.FinishUpload(e.ctx, &done))
	got, err = s.Upload(e.ctx, a.ID, u.ID)
	must(t, err)
	if !sameUpload(got, &done) || len(got.Received) != 0 {
		t.Errorf("completed: %+v\nwant %+v without parts", got, done)
	}

	no := *rejected
	no.Status, no.CompletedAt, no.RejectReason = media.Rejected, e.now(), "no video stream"
	must(t, s.FinishUpload(e.ctx, &no))
	if got, err := s.Upload(e.ctx, a.ID, no.ID); err != nil || !sameUpload(got, &no) {
		t.Errorf("rejected: %+v, %v\nwant %+v", got, err, no)
	}

	for _, tc := range []struct {
		name string
		err  error
	}{
		{"part after completion", s.RecordPart(e.ctx, u.ID, media.Part{Number: 3, Bytes: 1, ETag: "c"})},
		{"finish again", s.FinishUpload(e.ctx, &done)},
		{"finish a rejected one", s.FinishUpload(e.ctx, &no)},
	} {
		if apperr.KindOf(tc.err) != apperr.Conflict {
			t.Errorf("%s: %v; want conflict", tc.name, tc.err)
			continue
		}
		wantDetail(t, tc.err, "reason", "upload_completed")
	}
}

// uploadDue: what the sweeper deletes at now: pending sessions past
// their URLs and the grace, completed ones past retention, rejected
// ones; expiring forgets a session's parts.
func uploadDue(e *env) {
	t, s := e.t, e.db.Uploads()
	a := e.account(1)
	p := uuidN(500)
	grace := time.Hour
	e.upload(e.newUpload(1, a.ID, p, time.Hour))                      // live
	e.upload(e.newUpload(2, a.ID, p, 0))                              // URLs ended, within grace at now+30m
	e.upload(e.newUpload(3, a.ID, p, -2*time.Hour))                   // URLs ended before the grace
	e.finish(e.upload(e.newUpload(4, a.ID, p, time.Hour)), time.Hour) // kept
	e.finish(e.upload(e.newUpload(5, a.ID, p, time.Hour)), time.Minute)
	rejected := *e.upload(e.newUpload(6, a.ID, p, time.Hour))
	rejected.Status, rejected.CompletedAt, rejected.RejectReason = media.Rejected, e.now(), "unreadable"
	must(t, s.FinishUpload(e.ctx, &rejected))
	gone := e.upload(e.newUpload(7, a.ID, p, -2*time.Hour))
	must(t, s.RecordPart(e.ctx, gone.ID, media.Part{Number: 1, Bytes: 1, ETag: "x"}))
	must(t, s.ExpireUpload(e.ctx, gone.ID))

	at := e.now().Add(30 * time.Minute)
	due, err := s.DueUploads(e.ctx, at, grace, 100)
	must(t, err)
	got := uploadIDs(due)
	slices.Sort(got)
	if want := []string{uuidN(3), uuidN(5), uuidN(6)}; !slices.Equal(got, want) {
		t.Errorf("due at +30m: %v; want %v", got, want)
	}
	if few, err := s.DueUploads(e.ctx, at, grace, 2); err != nil || len(few) != 2 {
		t.Errorf("due with limit 2: %v, %v", uploadIDs(few), err)
	}
	expired, err := s.UploadByID(e.ctx, gone.ID)
	must(t, err)
	if expired.Status != media.Expired || len(expired.Received) != 0 {
		t.Errorf("expired session: status %s, parts %+v", expired.Status, expired.Received)
	}
}

// sameUpload compares what a store keeps of a session, but its parts.
func sameUpload(got, want *media.Session) bool {
	g, w := *got, *want
	times := [][2]time.Time{{g.CreatedAt, w.CreatedAt}, {g.ExpiresAt, w.ExpiresAt}, {g.CompletedAt, w.CompletedAt},
		{g.MediaExpiresAt, w.MediaExpiresAt}}
	for _, tt := range times {
		if !sameTime(tt[0], tt[1]) {
			return false
		}
	}
	g.CreatedAt, g.ExpiresAt, g.CompletedAt, g.MediaExpiresAt = w.CreatedAt, w.ExpiresAt, w.CompletedAt, w.MediaExpiresAt
	g.Received, w.Received = nil, nil
	return reflect.DeepEqual(g, w)
}

func uploadIDs(list []media.Session) []string {
	ids := make([]string, len(list))
	for i, u := range list {
		ids[i] = u.ID
	}
	return ids
}
