package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/s3test"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// putURL PUTs body to a presigned URL with a plain HTTP client, as a
// browser does, declaring length bytes, and returns the status and the
// ETag header.
func putURL(t *testing.T, u string, body []byte, length int64) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("ETag")
}

// keyOf is the blob key a path-style presigned URL of the bucket PUTs to.
func keyOf(t *testing.T, tg s3test.Target, u string) string {
	t.Helper()
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(parsed.Path, "/"+tg.Bucket+"/")
}

// padded is the clip followed by an MP4 "free" box making it size bytes:
// a file ffprobe reads as the clip, big enough for a multipart session,
// whose last bytes may be anything.
func padded(t *testing.T, clip []byte, size int) []byte {
	t.Helper()
	pad := size - len(clip)
	if pad < 8 {
		t.Fatalf("cannot pad %d bytes to %d", len(clip), size)
	}
	b := append(bytes.Clone(clip), binary.BigEndian.AppendUint32(nil, uint32(pad))...)
	b = append(b, "free"...)
	return append(b, make([]byte, pad-8)...)
}

// reason is err's details.reason and details.partNumber, or the error
// itself when it is not an *apperr.Error of kind.
func reason(t *testing.T, err error, kind apperr.Kind) (string, any) {
	t.Helper()
	ae, ok := apperr.As(err)
	if !ok || ae.Kind != kind {
		t.Fatalf("err = %v; want %s", err, kind.Code())
	}
	r, _ := ae.Details["reason"].(string)
	return r, ae.Details["partNumber"]
}

// TestPresignedMultipartUpload sends a multipart session's parts straight
// to the S3 store through the URLs the service gives, as a client does:
// complete finds them there, checks the ETags the PUTs answered (a part
// missing, or sent again after a failed complete, included), and
// assembles exactly the bytes sent.
func TestPresignedMultipartUpload(t *testing.T) {
	fftest.Need(t)
	e, tg := newPresignedEnv(t)
	ctx := context.Background()
	body := padded(t, mustRead(t, fftest.Clip(t, fftest.ClipOptions{Seconds: 2})), media.SinglePutMax+1)
	s := e.create(int64(len(body)))
	urls := e.urls(s)
	if !s.Multipart || len(urls) != 5 || urls[4].Bytes != 1 {
		t.Fatalf("session: multipart %t, %d parts; want 5 parts, the last of 1 byte", s.Multipart, len(urls))
	}
	parts := make([]media.Part, len(urls))
	off := int64(0)
	for i, u := range urls {
		if !strings.HasPrefix(u.URL, tg.Endpoint+"/") || u.On("http://node.example") != u.URL {
			t.Fatalf("part %d's URL %s is not the store's", u.Number, u.URL)
		}
		if q, _ := url.Parse(u.URL); q.Query().Get("X-Amz-Expires") != "3600" {
			t.Errorf("part %d's URL lives %s s; want the session's 3600", u.Number, q.Query().Get("X-Amz-Expires"))
		}
		parts[i].Number = u.Number
		if u.Number == 1 {
			off += u.Bytes
			continue // sent later
		}
		status, etag := putURL(t, u.URL, body[off:off+u.Bytes], u.Bytes)
		if status != http.StatusOK || etag == "" {
			t.Fatalf("PUT part %d: %d, ETag %q; want 200 with an ETag", u.Number, status, etag)
		}
		parts[i].ETag, off = etag, off+u.Bytes
	}
	in := media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey, Multipart: true, Parts: parts}
	_, err := e.svc.Complete(ctx, e.account, s.ID, in)
	if r, n := reason(t, err, apperr.BadRequest); r != "missing_part" || n != 1 {
		t.Fatalf("complete without part 1: %s of part %v; want missing_part of part 1", r, n)
	}
	status, etag := putURL(t, urls[0].URL, body[:urls[0].Bytes], urls[0].Bytes)
	if status != http.StatusOK {
		t.Fatalf("PUT part 1: %d", status)
	}
	parts[0].ETag = etag
	first := parts[4].ETag
	parts[4].ETag = strings.Repeat("0", 32)
	_, err = e.svc.Complete(ctx, e.account, s.ID, in)
	if r, n := reason(t, err, apperr.BadRequest); r != "etag_mismatch" || n != 5 {
		t.Fatalf("complete with a wrong ETag of part 5: %s of part %v; want etag_mismatch of part 5", r, n)
	}
	// Every part is recorded now. The last one sent again, with another
	// byte (in the padding): its new ETag, not the first, completes.
	body[len(body)-1] = 'x'
	status, etag = putURL(t, urls[4].URL, body[len(body)-1:], 1)
	if status != http.StatusOK || etag == first {
		t.Fatalf("PUT part 5 again: %d, ETag %s unchanged", status, etag)
	}
	parts[4].ETag = first
	_, err = e.svc.Complete(ctx, e.account, s.ID, in)
	if r, n := reason(t, err, apperr.BadRequest); r != "etag_mismatch" || n != 5 {
		t.Fatalf("complete with part 5's first ETag: %s of part %v; want etag_mismatch of part 5", r, n)
	}
	parts[4].ETag = etag
	done, err := e.svc.Complete(ctx, e.account, s.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != media.Completed || done.Probe == nil || done.Probe.Video() == nil {
		t.Fatalf("completed session = %+v", done)
	}
	rc, _, err := e.blobs.Get(ctx, s.ObjectKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("assembled %d bytes (%v), not the %d sent", len(got), err, len(body))
	}
	for info, err := range e.blobs.List(ctx, media.PartPrefix+s.ID+"/") {
		t.Errorf("after complete the store still holds %s (%v)", info.Key, err)
	}
	if urls := e.urls(done); urls != nil {
		t.Errorf("a completed session has URLs: %v", urls)
	}
}

// TestPresignedPartOfAnotherSize: the store refuses a PUT of another
// length than the part's; a part of the wrong size that got there anyway
// (a store that ignores the signed length) is refused by complete as an
// incomplete part, and sending the right size mends it. A session past
// its URLs' end gets URLs that die at once.
func TestPresignedPartOfAnotherSize(t *testing.T) {
	fftest.Need(t)
	e, tg := newPresignedEnv(t)
	ctx := context.Background()
	body := []byte(strings.Repeat("not a video ", 10))
	s := e.create(int64(len(body)))
	u := e.urls(s)[0]
	for _, wrong := range [][]byte{append(bytes.Clone(body), '!'), body[1:]} {
		// The store may answer 403 and hang up before the body is sent,
		// which the client sees as a broken connection: refused too.
		req, err := http.NewRequest(http.MethodPut, u.URL, bytes.NewReader(wrong))
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("PUT of %d bytes to a %d-byte part: %d; want 403", len(wrong), len(body), resp.StatusCode)
			}
		}
	}
	if _, err := e.blobs.Put(ctx, keyOf(t, tg, u.URL), bytes.NewReader(body[1:]), int64(len(body)-1)); err != nil {
		t.Fatal(err)
	}
	in := media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey}
	_, err := e.svc.Complete(ctx, e.account, s.ID, in)
	if r, n := reason(t, err, apperr.BadRequest); r != "incomplete_part" || n != 1 {
		t.Fatalf("complete with a short part: %s of part %v; want incomplete_part of part 1", r, n)
	}
	if status, _ := putURL(t, u.URL, body, int64(len(body))); status != http.StatusOK {
		t.Fatalf("PUT of the right size: %d", status)
	}
	// Past the parts check: ffprobe refuses the bytes.
	_, err = e.svc.Complete(ctx, e.account, s.ID, in)
	if r, _ := reason(t, err, apperr.ProcessingFailed); r != "unreadable_media" {
		t.Fatalf("complete with the part mended: %s; want unreadable_media", r)
	}

	late := e.create(10)
	e.clock.Advance(time.Duration(media.DefaultURLTTL)*time.Second + time.Minute)
	q, err := url.Parse(e.urls(late)[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	if q.Query().Get("X-Amz-Expires") != "1" {
		t.Errorf("URL of a session past its end lives %s s; want 1", q.Query().Get("X-Amz-Expires"))
	}
}
