package media_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

func TestCreateRefusesBadRequests(t *testing.T) {
	e := newEnv(t)
	ok := media.NewUpload{ProjectID: e.project, Filename: "clip.mp4", ContentType: "video/mp4", Bytes: 100}
	for _, c := range []struct {
		name   string
		edit   func(*media.NewUpload)
		kind   apperr.Kind
		field  string
		reason string
	}{
		{"zero bytes", func(u *media.NewUpload) { u.Bytes = 0 }, apperr.BadRequest, "bytes", "out_of_range"},
		{"over the maximum", func(u *media.NewUpload) { u.Bytes = 1<<30 + 1 }, apperr.RequestTooLarge, "bytes", ""},
		{"no file name", func(u *media.NewUpload) { u.Filename = " " }, apperr.BadRequest, "filename", "invalid"},
		// Shown as "clipmp4.exe"; refused as a project or key name is.
		{"bidirectional override in the file name", func(u *media.NewUpload) { u.Filename = "clip\u202eexe.mp4" }, apperr.BadRequest, "filename", "unsafe_character"},
		{"zero-width space in the file name", func(u *media.NewUpload) { u.Filename = "cl\u200bip.mp4" }, apperr.BadRequest, "filename", "unsafe_character"},
		{"newline in the file name", func(u *media.NewUpload) { u.Filename = "clip\n.mp4" }, apperr.BadRequest, "filename", "unsafe_character"},
		{"bad content type", func(u *media.NewUpload) { u.ContentType = "video" }, apperr.BadRequest, "contentType", "invalid"},
		{"content type with parameters", func(u *media.NewUpload) { u.ContentType = "video/mp4; x=1" }, apperr.BadRequest, "contentType", "invalid"},
		{"ttl too short", func(u *media.NewUpload) { u.URLTTLSeconds = 59 }, apperr.BadRequest, "urlTtlSeconds", "out_of_range"},
		{"ttl too long", func(u *media.NewUpload) { u.URLTTLSeconds = 86401 }, apperr.BadRequest, "urlTtlSeconds", "out_of_range"},
		{"project not a uuid", func(u *media.NewUpload) { u.ProjectID = "p1" }, apperr.BadRequest, "projectId", "invalid_uuid"},
		{"unknown project", func(u *media.NewUpload) { u.ProjectID = "7d444840-9dc0-11d1-b245-5ffdce74fad2" }, apperr.NotFound, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			c.edit(&in)
			_, err := e.svc.Create(context.Background(), e.account, in)
			ae, isApp := apperr.As(err)
			if !isApp || ae.Kind != c.kind {
				t.Fatalf("err = %v; want kind %v", err, c.kind)
			}
			if c.field != "" && ae.Details["field"] != c.field {
				t.Errorf("details.field = %v; want %s", ae.Details["field"], c.field)
			}
			if c.reason != "" && ae.Details["reason"] != c.reason {
				t.Errorf("details.reason = %v; want %s", ae.Details["reason"], c.reason)
			}
		})
	}
}

func TestLayout(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		bytes           int64
		multipart       bool
		partSize, count int64
		lastPart        int64
	}{
		{1, false, 1, 1, 1},
		{media.SinglePutMax, false, media.SinglePutMax, 1, media.SinglePutMax},
		{media.SinglePutMax + 1, true, media.MinPartSize, 5, 1},
		{1 << 30, true, media.MinPartSize, 64, media.MinPartSize},
	} {
		s := e.create(c.bytes)
		urls := e.urls(s)
		if s.Multipart != c.multipart || s.PartSize != c.partSize || int64(len(urls)) != c.count || urls[len(urls)-1].Bytes != c.lastPart {
			t.Errorf("%d bytes: multipart %t, part size %d, %d parts, last %d; want %t, %d, %d, %d", c.bytes, s.Multipart,
				s.PartSize, len(urls), urls[len(urls)-1].Bytes, c.multipart, c.partSize, c.count, c.lastPart)
		}
	}
}

func TestOpenSessionsAreBounded(t *testing.T) {
	e := newEnv(t)
	for range media.MaxOpenSessions {
		e.create(10)
	}
	_, err := e.svc.Create(context.Background(), e.account, media.NewUpload{ProjectID: e.project, Filename: "x.mp4", ContentType: "video/mp4", Bytes: 10})
	if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.Conflict || ae.Details["reason"] != "too_many_open_uploads" {
		t.Fatalf("the %dth open session: %v; want conflict too_many_open_uploads", media.MaxOpenSessions+1, err)
	}
	// Sessions whose URLs ended an hour ago no longer count.
	e.clock.Advance(time.Duration(media.DefaultURLTTL)*time.Second + media.CompleteGrace + time.Second)
	e.create(10)
}

func TestPutPartRefusals(t *testing.T) {
	e := newEnv(t)
	s := e.create(10)
	ctx := context.Background()
	u := e.urls(s)[0]
	q := u.URL[strings.Index(u.URL, "?")+1:]
	sig := q[strings.Index(q, "sig=")+4:]
	exp := q[len("expires="):strings.Index(q, "&")]
	// Another first character, whatever the signature starts with ("00" in
	// place of the first two passed when they were "00", 1 run in 256).
	altered := "1" + sig[1:]
	if sig[0] == '1' {
		altered = "0" + sig[1:]
	}
	for _, c := range []struct {
		name   string
		in     media.PutInput
		kind   apperr.Kind
		reason string
	}{
		{"altered signature", media.PutInput{UploadID: s.ID, Part: "1", Expires: exp, Sig: altered, Body: strings.NewReader("0123456789"), ContentLength: 10}, apperr.Forbidden, "invalid_signature"},
		{"altered expiry", media.PutInput{UploadID: s.ID, Part: "1", Expires: exp + "0", Sig: sig, Body: strings.NewReader("0123456789"), ContentLength: 10}, apperr.Forbidden, "invalid_signature"},
		{"another part", media.PutInput{UploadID: s.ID, Part: "2", Expires: exp, Sig: sig, Body: strings.NewReader("0123456789"), ContentLength: 10}, apperr.Forbidden, "invalid_signature"},
		{"part zero", media.PutInput{UploadID: s.ID, Part: "0", Expires: exp, Sig: sig, Body: strings.NewReader("x"), ContentLength: 1}, apperr.NotFound, ""},
		{"more declared", media.PutInput{UploadID: s.ID, Part: "1", Expires: exp, Sig: sig, Body: strings.NewReader("0123456789a"), ContentLength: 11}, apperr.RequestTooLarge, ""},
		{"more sent, none declared", media.PutInput{UploadID: s.ID, Part: "1", Expires: exp, Sig: sig, Body: strings.NewReader("0123456789a"), ContentLength: -1}, apperr.RequestTooLarge, ""},
		{"fewer", media.PutInput{UploadID: s.ID, Part: "1", Expires: exp, Sig: sig, Body: strings.NewReader("012"), ContentLength: -1}, apperr.BadRequest, "incomplete_part"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.svc.PutPart(ctx, c.in)
			ae, ok := apperr.As(err)
			if !ok || ae.Kind != c.kind || (c.reason != "" && ae.Details["reason"] != c.reason) {
				t.Fatalf("err = %v; want %v %s", err, c.kind, c.reason)
			}
		})
	}
	got, err := e.svc.Get(ctx, e.account, s.ID)
	if err != nil || len(got.Received) != 0 {
		t.Fatalf("after refused puts: %v, parts %v; want none", err, got.Received)
	}
	e.clock.Advance(time.Hour)
	if _, err := e.put(s, 1, []byte("0123456789")); apperr.KindOf(err) != apperr.Forbidden {
		t.Fatalf("expired URL: %v; want forbidden", err)
	}
}

func TestUploadCompleteAndExpire(t *testing.T) {
	fftest.Need(t)
	e := newEnv(t)
	ctx := context.Background()
	clip := mustRead(t, fftest.Clip(t, fftest.ClipOptions{Seconds: 2}))
	s := e.create(int64(len(clip)))
	p, err := e.put(s, 1, clip)
	if err != nil {
		t.Fatal(err)
	}
	// A part sent again replaces the earlier one.
	if p2, err := e.put(s, 1, clip); err != nil || p2.ETag != p.ETag {
		t.Fatalf("second put: %v, etag %s; want %s", err, p2.ETag, p.ETag)
	}
	bad := media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey, Parts: []media.Part{{Number: 1, ETag: strings.Repeat("0", 64)}}}
	if _, err := e.svc.Complete(ctx, e.account, s.ID, bad); apperr.KindOf(err) != apperr.BadRequest {
		t.Fatalf("wrong etag: %v; want bad_request", err)
	}
	done, err := e.svc.Complete(ctx, e.account, s.ID, media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey,
		Parts: []media.Part{{Number: 1, ETag: `"` + p.ETag + `"`}}})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != media.Completed || done.Probe == nil || done.Probe.Container != "mp4" || done.Probe.Video() == nil ||
		!done.MediaExpiresAt.Equal(done.CompletedAt.Add(media.Retention)) {
		t.Fatalf("completed session = %+v", done)
	}
	if _, err := e.put(s, 1, clip); apperr.KindOf(err) != apperr.Conflict {
		t.Fatalf("a put after completion: %v; want conflict", err)
	}
	if _, err := e.svc.Media(ctx, e.account, s.ObjectKey); err != nil {
		t.Fatalf("media while kept: %v", err)
	}
	e.clock.Advance(media.Retention)
	if n, err := e.svc.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v; want 1", n, err)
	}
	if _, _, err := e.blobs.Get(ctx, s.ObjectKey, nil); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("media bytes after the sweep: %v; want gone", err)
	}
	if _, err := e.svc.Media(ctx, e.account, s.ObjectKey); apperr.KindOf(err) != apperr.Conflict {
		t.Fatalf("media after retention: %v; want conflict media_expired", err)
	}
}

func TestCompleteRejectsUnreadableMedia(t *testing.T) {
	fftest.Need(t)
	e := newEnv(t)
	ctx := context.Background()
	for name, body := range map[string]string{
		"garbage":      strings.Repeat("not a video ", 100),
		"hls playlist": "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/passwd\n#EXT-X-ENDLIST\n",
	} {
		t.Run(name, func(t *testing.T) {
			s := e.create(int64(len(body)))
			p, err := e.put(s, 1, []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.Complete(ctx, e.account, s.ID, media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey,
				Parts: []media.Part{{Number: 1, ETag: p.ETag}}})
			if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.ProcessingFailed || ae.Details["reason"] != "unreadable_media" {
				t.Fatalf("complete: %v; want processing_failed unreadable_media", err)
			}
			got, err := e.svc.Get(ctx, e.account, s.ID)
			if err != nil || got.Status != media.Rejected {
				t.Fatalf("session after: %v %v; want rejected", got.Status, err)
			}
			if _, _, err := e.blobs.Get(ctx, s.ObjectKey, nil); apperr.KindOf(err) != apperr.NotFound {
				t.Errorf("rejected media kept: %v", err)
			}
		})
	}
}

func TestMultipartCompleteChecksEveryPart(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	s := e.create(media.SinglePutMax + 1)
	urls := e.urls(s)
	parts := make([]media.Part, len(urls))
	for i, u := range urls {
		parts[i] = media.Part{Number: u.Number}
	}
	// Only the last (1-byte) part arrives.
	p, err := e.put(s, len(urls), []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	parts[len(parts)-1].ETag = p.ETag
	in := media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey, Multipart: true, Parts: parts}
	_, err = e.svc.Complete(ctx, e.account, s.ID, in)
	if ae, ok := apperr.As(err); !ok || ae.Details["reason"] != "missing_part" || ae.Details["partNumber"] != 1 {
		t.Fatalf("missing parts: %v; want missing_part of part 1", err)
	}
	in.Parts = []media.Part{parts[1], parts[0]}
	if _, err := e.svc.Complete(ctx, e.account, s.ID, in); apperr.KindOf(err) != apperr.BadRequest {
		t.Fatalf("two parts listed out of order: %v; want bad_request", err)
	}
	in.Multipart = false
	if ae, ok := apperr.As(func() error { _, err := e.svc.Complete(ctx, e.account, s.ID, in); return err }()); !ok || ae.Details["field"] != "multipart" {
		t.Fatalf("multipart false on a multipart session: %v", ae)
	}
}
