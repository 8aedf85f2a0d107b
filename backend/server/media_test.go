package server_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/race"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

const mib = 1 << 20

// TestMediaUploadSingle: a file up to 64 MiB gets one signed URL; its PUT
// answers the part's SHA-256 as ETag; complete probes it (duration, the
// H.264 picture's size, the audio) and keeps it 24 hours; the session
// reads back and is listed, newest first; another account sees nothing.
func TestMediaUploadSingle(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Harbour", mediaIR)
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 5})
	b, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}

	before := e.clock.Now().UTC().Truncate(time.Second)
	s := e.createUpload(pid, `C:\clips\harbour show.mp4`, int64(len(b)))
	after := e.clock.Now().UTC()
	if _, err := uuid.Parse(s.UploadID); err != nil {
		t.Errorf("uploadId %q", s.UploadID)
	}
	if s.ProjectID != pid || s.ObjectKey != "media/"+s.UploadID || s.Filename != "harbour show.mp4" ||
		s.ContentType != "video/mp4" || s.Bytes != int64(len(b)) || s.Status != "pending" || s.Multipart ||
		s.PartSize != 0 || s.Parts != nil || s.ReceivedParts == nil || len(s.ReceivedParts) != 0 ||
		s.CompletedAt != nil || s.MediaExpiresAt != nil || s.Probe != nil {
		t.Errorf("created session %+v", s)
	}
	if !strings.HasPrefix(s.URL, e.url+"/api/uploads/"+s.UploadID+"/1?") {
		t.Errorf("url %q; want a signed PUT on this server", s.URL)
	}
	if s.CreatedAt.Before(before) || s.CreatedAt.After(after) || !s.ExpiresAt.Equal(s.CreatedAt.Add(time.Hour)) {
		t.Errorf("createdAt %v, expiresAt %v; want now and an hour later (the default urlTtlSeconds)", s.CreatedAt, s.ExpiresAt)
	}

	etag := putOK(t, s.URL, b)
	got := e.getUpload(s.UploadID)
	if got.Status != "pending" || got.URL != s.URL || len(got.ReceivedParts) != 1 ||
		got.ReceivedParts[0] != (httpapi.PartView{PartNumber: 1, ETag: etag, Bytes: int64(len(b))}) {
		t.Errorf("session after the PUT: %+v", got)
	}

	// A single-URL upload may omit parts.
	var done httpapi.UploadView
	e.call("POST", "/api/v1/media/upload/"+s.UploadID+"/complete",
		map[string]any{"projectId": pid, "objectKey": s.ObjectKey}, 200, &done)
	checkCompleted(t, &done, 5)
	if done.URL != "" || len(done.ReceivedParts) != 0 {
		t.Errorf("completed session still has url %q, parts %v", done.URL, done.ReceivedParts)
	}
	if again := e.getUpload(s.UploadID); again.Status != "completed" || again.Probe == nil ||
		!again.MediaExpiresAt.Equal(*done.MediaExpiresAt) {
		t.Errorf("GET after complete: %+v", again)
	}

	// The media is the bytes sent; the part is gone.
	stored, err := os.ReadFile(blobFile(e.dir, s.ObjectKey))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(stored, b) || len(stored)-len(b) > 64 {
		t.Errorf("stored media: %d bytes, not the %d sent behind a small header", len(stored), len(b))
	}
	if left := listDir(blobFile(e.dir, "uploads/"+s.UploadID)); len(left) != 0 {
		t.Errorf("parts left after complete: %v", left)
	}

	// The project's media, newest first.
	s2 := e.createUpload(pid, "second.mkv", 1000)
	var list struct { // httpapi's uploadList is unexported: its one member
		Media []httpapi.UploadView `json:"media"`
	}
	e.call("GET", "/api/v1/media?projectId="+pid, nil, 200, &list)
	if len(list.Media) != 2 || list.Media[0].UploadID != s2.UploadID || list.Media[1].UploadID != s.UploadID ||
		list.Media[1].Status != "completed" || list.Media[1].Probe == nil || list.Media[0].URL == "" {
		t.Errorf("media list %+v; want the pending %s then the completed %s", list.Media, s2.UploadID, s.UploadID)
	}
	r := e.do(e.key, "GET", "/api/v1/media?projectId=nope", nil)
	checkError(t, "list with a bad projectId", r, 400, "bad_request", map[string]any{"field": "projectId"})

	// Another account sees none of it.
	other := e.otherAccount("other@example.com")
	checkError(t, "other account's GET", e.do(other, "GET", "/api/v1/media/upload/"+s.UploadID, nil), 404, "not_found", nil)
	e.callAs(other, "GET", "/api/v1/media?projectId="+pid, nil, 200, &list)
	if len(list.Media) != 0 {
		t.Errorf("another account lists %d sessions of the owner's project", len(list.Media))
	}
	r = e.do(other, "POST", "/api/v1/media/upload/"+s2.UploadID+"/complete", map[string]any{"projectId": pid, "objectKey": s2.ObjectKey})
	checkError(t, "other account's complete", r, 404, "not_found", nil)
}

// checkCompleted checks a completed session of a fftest clip of secs
// seconds, 640x360 H.264 with AAC audio.
func checkCompleted(t testing.TB, s *httpapi.UploadView, secs float64) {
	t.Helper()
	if s.Status != "completed" || s.CompletedAt == nil || s.MediaExpiresAt == nil || s.Probe == nil {
		t.Fatalf("completed session %+v", s)
	}
	if !s.MediaExpiresAt.Equal(s.CompletedAt.Add(24 * time.Hour)) {
		t.Errorf("mediaExpiresAt %v; want completedAt %v + 24 h", s.MediaExpiresAt, s.CompletedAt)
	}
	p := s.Probe
	if p.Container != "mp4" || p.DurationSeconds < secs-0.2 || p.DurationSeconds > secs+0.3 || p.ClosedCaptions {
		t.Errorf("probe %+v; want mp4 of %v s without captions", p, secs)
	}
	var video, audio int
	for _, st := range p.Streams {
		switch st.Type {
		case "video":
			video++
			if st.Codec != "h264" || st.Width != 640 || st.Height != 360 || st.FrameRate < 29.9 || st.FrameRate > 30.1 {
				t.Errorf("video stream %+v; want h264 640x360 at 30 fps", st)
			}
		case "audio":
			audio++
			if st.Codec != "aac" || st.Channels < 1 {
				t.Errorf("audio stream %+v; want aac", st)
			}
		}
	}
	if video != 1 || audio != 1 {
		t.Errorf("probe streams %+v; want one video and one audio", p.Streams)
	}
}

// TestMediaUploadLayout: above 64 MiB a session is multipart, in parts
// of 16 MiB (the last holds the rest), raised in whole MiB so that no
// file needs more than 1,000 parts.
func TestMediaUploadLayout(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, func(cfg *server.Config) { cfg.MaxMediaBytes = 20 << 30 })
	// Sessions of up to 20 GiB are opened, past the pro storage quota.
	room := int64(40 << 30)
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), server.DefaultOwnerEmail, account.AccountUpdate{StorageQuota: &room}); err != nil {
		t.Fatal(err)
	}
	pid := e.newProject("Layout", mediaIR)
	for _, c := range []struct {
		bytes    int64
		partSize int64 // 0: a single URL
		parts    int
		last     int64
	}{
		{64 * mib, 0, 1, 64 * mib},
		{64*mib + 1, 16 * mib, 5, 1},
		{100 * mib, 16 * mib, 7, 4 * mib},
		{8 << 30, 16 * mib, 512, 16 * mib},
		{20 << 30, 21 * mib, 976, 5 * mib},
	} {
		s := e.createUpload(pid, "big.mp4", c.bytes)
		if c.partSize == 0 {
			if s.Multipart || s.URL == "" || s.Parts != nil || s.PartSize != 0 {
				t.Errorf("%d bytes: %+v; want one URL", c.bytes, s)
			}
			continue
		}
		if !s.Multipart || s.URL != "" || s.PartSize != c.partSize || len(s.Parts) != c.parts {
			t.Errorf("%d bytes: multipart %v, url %q, partSize %d, %d parts; want parts of %d, %d of them",
				c.bytes, s.Multipart, s.URL, s.PartSize, len(s.Parts), c.partSize, c.parts)
			continue
		}
		var sum int64
		seen := map[string]bool{}
		for i, p := range s.Parts {
			want := c.partSize
			if i == len(s.Parts)-1 {
				want = c.last
			}
			if p.PartNumber != i+1 || p.Bytes != want || seen[p.URL] ||
				!strings.HasPrefix(p.URL, fmt.Sprintf("%s/api/uploads/%s/%d?", e.url, s.UploadID, i+1)) {
				t.Errorf("%d bytes: part %d = %+v; want %d bytes at its own signed URL", c.bytes, i+1, p, want)
				break
			}
			seen[p.URL] = true
			sum += p.Bytes
		}
		if sum != c.bytes {
			t.Errorf("%d bytes: the parts add up to %d", c.bytes, sum)
		}
	}
}

// TestMediaUploadMultipart: a real file over 64 MiB sent in parts out of
// order, one part sent twice (the second replaces the first), the upload
// resumed from the session's receivedParts and fresh URLs, completed
// with every etag: the media is the file, byte for byte, and probes.
func TestMediaUploadMultipart(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Multipart", mediaIR)
	m := newPaddedMedia(t, fftest.Clip(t, fftest.ClipOptions{Seconds: 5}), 70*mib+12345)
	s := e.createUpload(pid, "long.mp4", m.size)
	if !s.Multipart || s.PartSize != 16*mib || len(s.Parts) != 5 {
		t.Fatalf("session %+v; want 5 parts of 16 MiB", s)
	}
	urls := partURLs(s)
	etags := map[int]string{}
	// Out of order; part 1 first with part 2's bytes (of the same size),
	// then again with its own.
	etags[3] = putSection(t, urls[3].URL, m.part(3, s.PartSize))
	etags[5] = putSection(t, urls[5].URL, m.part(5, s.PartSize))
	wrong := putSection(t, urls[1].URL, m.part(2, s.PartSize))
	etags[1] = putSection(t, urls[1].URL, m.part(1, s.PartSize))
	if wrong == etags[1] {
		t.Fatal("parts 1 and 2 have the same bytes; the test cannot tell a replacement")
	}

	// A client that lost its state resumes from the session.
	got := e.getUpload(s.UploadID)
	want := []httpapi.PartView{{PartNumber: 1, ETag: etags[1], Bytes: 16 * mib}, {PartNumber: 3, ETag: etags[3], Bytes: 16 * mib},
		{PartNumber: 5, ETag: etags[5], Bytes: m.size - 64*mib}}
	if got.Status != "pending" || fmt.Sprint(got.ReceivedParts) != fmt.Sprint(want) || len(got.Parts) != 5 {
		t.Fatalf("session to resume: status %s, received %v, %d URLs; want received %v and 5 URLs",
			got.Status, got.ReceivedParts, len(got.Parts), want)
	}
	fresh := partURLs(got)
	for _, n := range []int{2, 4} {
		if fresh[n].Bytes != 16*mib {
			t.Errorf("fresh URL of part %d: %+v", n, fresh[n])
		}
		etags[n] = putSection(t, fresh[n].URL, m.part(n, s.PartSize))
	}
	// ETags may be sent quoted, as the header has them.
	etags[2] = `"` + etags[2] + `"`
	var done httpapi.UploadView
	e.complete(s, etags, 200, &done)
	checkCompleted(t, &done, 5)

	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(m, 0, m.size)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(blobFile(e.dir, s.ObjectKey))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	h2 := sha256.New()
	if _, err := io.Copy(h2, io.NewSectionReader(f, st.Size()-m.size, m.size)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(h.Sum(nil), h2.Sum(nil)) || st.Size()-m.size > 64 {
		t.Errorf("the stored media (%d bytes) is not the file sent (%d bytes)", st.Size(), m.size)
	}
	if left := listDir(blobFile(e.dir, "uploads/"+s.UploadID)); len(left) != 0 {
		t.Errorf("parts left after complete: %v", left)
	}
}

// TestMediaPutRefusals: a PUT with an altered signature, an expired URL,
// more or fewer bytes than its part (declared or sent chunked), a part
// the session does not have, or after completion is refused in the error
// envelope, and nothing of it stays: the part stored before is still the
// one received.
func TestMediaPutRefusals(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Refusals", mediaIR)
	b, err := os.ReadFile(fftest.Clip(t, fftest.ClipOptions{Seconds: 5}))
	if err != nil {
		t.Fatal(err)
	}
	s := e.createUpload(pid, "clip.mp4", int64(len(b)))
	etag := putOK(t, s.URL, b)
	partsDir := blobFile(e.dir, "uploads/"+s.UploadID)
	tmpDir := filepath.Join(e.dir, server.BlobsDir, ".tmp")
	unchanged := func(what string) {
		t.Helper()
		got := e.getUpload(s.UploadID)
		if len(got.ReceivedParts) != 1 || got.ReceivedParts[0] != (httpapi.PartView{PartNumber: 1, ETag: etag, Bytes: int64(len(b))}) || got.Status != "pending" {
			t.Errorf("after %s: session %s, received %v; want the first PUT's part only", what, got.Status, got.ReceivedParts)
		}
		if left := listDir(partsDir); fmt.Sprint(left) != "[00001]" {
			t.Errorf("after %s: part files %v", what, left)
		}
		if left := listDir(tmpDir); len(left) != 0 {
			t.Errorf("after %s: temporary files %v", what, left)
		}
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	sig, expires := q.Get("sig"), q.Get("expires")
	with := func(path string, set map[string]string) string {
		v := url.Values{"sig": {sig}, "expires": {expires}}
		for k, x := range set {
			if x == "" {
				v.Del(k)
			} else {
				v.Set(k, x)
			}
		}
		return e.url + path + "?" + v.Encode()
	}
	altered := sig[:len(sig)-1] + "a"
	if strings.HasSuffix(sig, "a") {
		altered = sig[:len(sig)-1] + "b"
	}
	exp, _ := strconv.ParseInt(expires, 10, 64)
	other := e.createUpload(pid, "other.mp4", int64(len(b)))
	path := u.Path
	for _, c := range []struct {
		what string
		url  string
	}{
		{"an altered signature", with(path, map[string]string{"sig": altered})},
		{"no signature", with(path, map[string]string{"sig": ""})},
		{"a signature that is not hex", with(path, map[string]string{"sig": "zz" + sig[2:]})},
		{"a later expiry", with(path, map[string]string{"expires": strconv.FormatInt(exp+3600, 10)})},
		{"no expiry", with(path, map[string]string{"expires": ""})},
		{"another upload's id", with("/api/uploads/"+other.UploadID+"/1", nil)},
		{"part 1's signature on part 2", with("/api/uploads/"+s.UploadID+"/2", nil)},
	} {
		r := put(t, c.url, bytes.NewReader(b), int64(len(b)))
		checkError(t, "PUT with "+c.what, r, 403, "forbidden", map[string]any{"reason": "invalid_signature"})
	}
	unchanged("refused signatures")

	// The signer this test uses is the server's: it signs part 1 as the
	// server did.
	if got := signPart(t, e.dir, s.UploadID, 1, exp); got != strings.TrimPrefix(s.URL, e.url) {
		t.Fatalf("the test's signature %s is not the server's %s", got, s.URL)
	}
	// Parts the session does not have, and names that are no part.
	for _, c := range []struct{ what, url string }{
		{"part 2 of a single upload (signed)", e.url + signPart(t, e.dir, s.UploadID, 2, exp)},
		{"part 1001 (signed)", e.url + signPart(t, e.dir, s.UploadID, 1001, exp)},
		{"part 0", with("/api/uploads/"+s.UploadID+"/0", nil)},
		{"part 01", with("/api/uploads/"+s.UploadID+"/01", nil)},
		{"part x", with("/api/uploads/"+s.UploadID+"/x", nil)},
		{"an unknown upload (signed)", e.url + signPart(t, e.dir, uuid.NewString(), 1, exp)},
	} {
		checkError(t, "PUT to "+c.what, put(t, c.url, bytes.NewReader(b), int64(len(b))), 404, "not_found", nil)
	}
	unchanged("unknown parts")

	// Sizes.
	more := append(append([]byte(nil), b...), 'x')
	checkError(t, "PUT declaring one byte more", put(t, s.URL, bytes.NewReader(more), int64(len(more))),
		400, "payload_too_large", map[string]any{"limitBytes": len(b)})
	unchanged("a longer part declared")
	more = append(append([]byte(nil), b...), bytes.Repeat([]byte("x"), 100)...)
	checkError(t, "PUT sending 100 bytes more, chunked", put(t, s.URL, bytes.NewReader(more), -1),
		400, "payload_too_large", map[string]any{"limitBytes": len(b)})
	unchanged("a longer part sent chunked")
	// Much more, chunked: cut off at the part's size, not read to the end.
	big := io.MultiReader(bytes.NewReader(b), io.LimitReader(zeros{}, 32*mib))
	checkError(t, "PUT sending 32 MiB more, chunked", putTolerant(t, s.URL, big), 400, "payload_too_large", nil)
	unchanged("a much longer part sent chunked")
	checkError(t, "PUT of one byte less", put(t, s.URL, bytes.NewReader(b[1:]), int64(len(b)-1)),
		400, "bad_request", map[string]any{"reason": "incomplete_part"})
	unchanged("a shorter part declared")
	checkError(t, "PUT of one byte less, chunked", put(t, s.URL, bytes.NewReader(b[1:]), -1),
		400, "bad_request", map[string]any{"reason": "incomplete_part"})
	unchanged("a shorter part sent chunked")
	checkError(t, "PUT of nothing", put(t, s.URL, bytes.NewReader(nil), 0),
		400, "bad_request", map[string]any{"reason": "incomplete_part"})
	unchanged("an empty part")

	// An expired URL (the clock moved past expiresAt).
	e.clock.advance(time.Hour + time.Second)
	checkError(t, "PUT after expiresAt", put(t, s.URL, bytes.NewReader(b), int64(len(b))), 403, "forbidden",
		map[string]any{"reason": "expired"})
	e.clock.advance(-time.Hour - time.Second)
	unchanged("an expired URL")

	// After completion, no PUT is taken.
	var done httpapi.UploadView
	e.complete(s, map[int]string{1: etag}, 200, &done)
	checkError(t, "PUT after complete", put(t, s.URL, bytes.NewReader(b), int64(len(b))), 409, "conflict",
		map[string]any{"reason": "upload_completed"})
	if left := listDir(partsDir); len(left) != 0 {
		t.Errorf("part files after a PUT to a completed session: %v", left)
	}
}

// zeros reads zero bytes forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// putTolerant is put for a body the server may stop reading: a client
// still sending when the answer comes may see its connection reset;
// then the answer is read from a raw connection.
func putTolerant(t testing.TB, u string, body io.Reader) response {
	t.Helper()
	req, err := http.NewRequest("PUT", u, struct{ io.Reader }{body})
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		// Read the answer the server wrote before it closed.
		return rawPut(t, u, body)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// rawPut sends a chunked PUT on a raw connection, as far as the server
// reads it, and returns the answer it wrote.
func rawPut(t testing.TB, u string, body io.Reader) response {
	t.Helper()
	pu, _ := url.Parse(u)
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: chunked\r\n\r\n", pu.RequestURI(), pu.Host)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := body.Read(buf)
			if n > 0 {
				if _, werr := fmt.Fprintf(conn, "%x\r\n%s\r\n", n, buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				_, _ = io.WriteString(conn, "0\r\n\r\n")
				return
			}
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("raw PUT: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// TestMediaCompleteRefusals: complete names the field at fault (a wrong
// or missing etag, parts out of order, another project or objectKey),
// refuses media ffmpeg cannot read (garbage, a playlist or a concat list
// posing as an MP4, whose named files ffmpeg never opens: the session is
// rejected and its bytes deleted), and a second complete.
func TestMediaCompleteRefusals(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Complete", mediaIR)
	pid2 := e.newProject("Another", mediaIR)
	b, err := os.ReadFile(fftest.Clip(t, fftest.ClipOptions{Seconds: 5}))
	if err != nil {
		t.Fatal(err)
	}
	s := e.createUpload(pid, "clip.mp4", int64(len(b)))
	completePath := "/api/v1/media/upload/" + s.UploadID + "/complete"
	body := func(set map[string]any) map[string]any {
		m := map[string]any{"projectId": pid, "objectKey": s.ObjectKey, "multipart": false}
		for k, v := range set {
			m[k] = v
		}
		return m
	}
	r := e.do(e.key, "POST", completePath, body(nil))
	checkError(t, "complete before the PUT", r, 400, "bad_request", map[string]any{"field": "parts", "reason": "missing_part"})
	etag := putOK(t, s.URL, b)
	zero := strings.Repeat("0", 64)
	for _, c := range []struct {
		what  string
		body  map[string]any
		field string
	}{
		{"a wrong etag", body(map[string]any{"parts": []map[string]any{{"partNumber": 1, "etag": zero}}}), "parts"},
		{"another project", body(map[string]any{"projectId": pid2}), "projectId"},
		{"an unknown project", body(map[string]any{"projectId": uuid.NewString()}), "projectId"},
		{"another objectKey", body(map[string]any{"objectKey": "media/" + uuid.NewString()}), "objectKey"},
		{"multipart true", body(map[string]any{"multipart": true}), "multipart"},
	} {
		r := e.do(e.key, "POST", completePath, c.body)
		checkError(t, "complete with "+c.what, r, 400, "bad_request", map[string]any{"field": c.field})
	}
	r = e.do(e.key, "POST", completePath, body(map[string]any{"parts": []map[string]any{{"partNumber": 1, "etag": zero}}}))
	checkError(t, "complete with a wrong etag", r, 400, "bad_request", map[string]any{"reason": "etag_mismatch", "partNumber": 1})
	if got := e.getUpload(s.UploadID); got.Status != "pending" || len(got.ReceivedParts) != 1 {
		t.Errorf("after refused completes: %+v", got)
	}
	var done httpapi.UploadView
	e.call("POST", completePath, body(map[string]any{"parts": []map[string]any{{"partNumber": 1, "etag": `"` + etag + `"`}}}), 200, &done)
	checkCompleted(t, &done, 5)
	r = e.do(e.key, "POST", completePath, body(map[string]any{"parts": []map[string]any{{"partNumber": 1, "etag": etag}}}))
	checkError(t, "complete twice", r, 409, "conflict", map[string]any{"reason": "upload_completed"})

	// Multipart: a part never sent, parts out of order, parts left out.
	mp := e.createUpload(pid, "five.mp4", 64*mib+1)
	last := putOK(t, mp.Parts[4].URL, []byte{0})
	all := map[int]string{1: zero, 2: zero, 3: zero, 4: zero, 5: last}
	r = e.complete(mp, all, 400, nil)
	checkError(t, "complete without part 1", r, 400, "bad_request", map[string]any{"field": "parts", "reason": "missing_part", "partNumber": 1})
	shuffled := []map[string]any{{"partNumber": 2, "etag": zero}, {"partNumber": 1, "etag": zero},
		{"partNumber": 3, "etag": zero}, {"partNumber": 4, "etag": zero}, {"partNumber": 5, "etag": last}}
	r = e.do(e.key, "POST", "/api/v1/media/upload/"+mp.UploadID+"/complete",
		map[string]any{"projectId": pid, "objectKey": mp.ObjectKey, "multipart": true, "parts": shuffled})
	checkError(t, "complete out of order", r, 400, "bad_request", map[string]any{"field": "parts", "reason": "out_of_order"})
	r = e.do(e.key, "POST", "/api/v1/media/upload/"+mp.UploadID+"/complete",
		map[string]any{"projectId": pid, "objectKey": mp.ObjectKey, "multipart": true,
			"parts": []map[string]any{{"partNumber": 5, "etag": last}}})
	checkError(t, "complete naming one part of five", r, 400, "bad_request", map[string]any{"field": "parts", "reason": "missing_part"})

	// What ffmpeg cannot read is rejected, and deleted.
	garbage := make([]byte, 4096)
	_, _ = rand.Read(garbage)
	g := e.uploadRejected(pid, "garbage.mp4", garbage)
	r = e.do(e.key, "POST", "/api/v1/jobs/render", map[string]any{"projectId": pid, "mode": "mux_soft",
		"preset": "youtube", "mediaObjectKey": g.ObjectKey})
	checkError(t, "render of rejected media", r, 409, "conflict", map[string]any{"reason": "media_expired"})

	// A playlist and a concat list naming files, as .mp4: never followed.
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write(b)
	}))
	defer ts.Close()
	secret := writeTemp(t, "secret.mp4", b)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(secret, old, time.Now()); err != nil {
		t.Fatal(err)
	}
	atime := func() time.Time {
		var st syscall.Stat_t
		if err := syscall.Stat(secret, &st); err != nil {
			t.Fatal(err)
		}
		return time.Unix(st.Atim.Unix())
	}
	before := atime()
	hls := fmt.Sprintf("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:5\n#EXTINF:5.0,\n%s/seg0.ts\n#EXTINF:5.0,\n%s\n#EXTINF:5.0,\nfile:%s\n#EXT-X-ENDLIST\n",
		ts.URL, secret, secret)
	e.uploadRejected(pid, "playlist.mp4", []byte(hls))
	concat := fmt.Sprintf("ffconcat version 1.0\nfile '%s'\nfile '%s/seg1.mp4'\n", secret, ts.URL)
	e.uploadRejected(pid, "concat.mp4", []byte(concat))
	if n := hits.Load(); n != 0 {
		t.Errorf("probing the playlists fetched %d URLs they name", n)
	}
	if after := atime(); !after.Equal(before) {
		t.Errorf("probing the playlists read the file they name (atime %v, was %v)", after, before)
	}
}

// uploadRejected uploads b, expects complete to answer 422 unreadable
// media, and checks the session is rejected with its bytes deleted.
func (e *videoEnv) uploadRejected(pid, name string, b []byte) *httpapi.UploadView {
	e.t.Helper()
	s := e.createUpload(pid, name, int64(len(b)))
	etag := putOK(e.t, s.URL, b)
	r := e.complete(s, map[int]string{1: etag}, 422, nil)
	checkError(e.t, "complete of "+name, r, 422, "processing_failed", map[string]any{"reason": "unreadable_media"})
	got := e.getUpload(s.UploadID)
	if got.Status != "rejected" || got.RejectReason != "unreadable_media" || got.Probe != nil || got.MediaExpiresAt != nil {
		e.t.Errorf("%s after the 422: %+v; want rejected for unreadable_media", name, got)
	}
	if exists(blobFile(e.dir, s.ObjectKey)) || len(listDir(blobFile(e.dir, "uploads/"+s.UploadID))) != 0 {
		e.t.Errorf("%s: bytes kept after the rejection", name)
	}
	r = e.complete(s, map[int]string{1: etag}, 409, nil)
	checkError(e.t, "complete of "+name+" again", r, 409, "conflict", map[string]any{"reason": "upload_completed"})
	return s
}

// TestMediaUploadLimits: bytes over the maximum, urlTtlSeconds out of
// 60..86400, and a ninth pending session are refused; a session that
// ends (completed, rejected, or its URLs an hour past expiry) frees its
// place.
func TestMediaUploadLimits(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Limits", mediaIR)
	req := func(size int64, ttl any) map[string]any {
		m := map[string]any{"projectId": pid, "filename": "a.mp4", "contentType": "video/mp4", "bytes": size}
		if ttl != nil {
			m["urlTtlSeconds"] = ttl
		}
		return m
	}
	r := e.do(e.key, "POST", "/api/v1/media/upload", req(8<<30+1, nil))
	checkError(t, "8 GiB + 1", r, 400, "payload_too_large", map[string]any{"limitBytes": int64(8 << 30)})
	for _, c := range []struct {
		what  string
		body  map[string]any
		field string
	}{
		{"bytes 0", req(0, nil), "bytes"},
		{"urlTtlSeconds 59", req(100, 59), "urlTtlSeconds"},
		{"urlTtlSeconds 86401", req(100, 86401), "urlTtlSeconds"},
		{"no filename", map[string]any{"projectId": pid, "contentType": "video/mp4", "bytes": 100}, "filename"},
		{"a content type that is none", map[string]any{"projectId": pid, "filename": "a.mp4", "contentType": "video", "bytes": 100}, "contentType"},
	} {
		checkError(t, c.what, e.do(e.key, "POST", "/api/v1/media/upload", c.body), 400, "bad_request", map[string]any{"field": c.field})
	}
	checkError(t, "an unknown project", e.do(e.key, "POST", "/api/v1/media/upload",
		map[string]any{"projectId": uuid.NewString(), "filename": "a.mp4", "contentType": "video/mp4", "bytes": 100}), 404, "not_found", nil)

	var s60, sDay httpapi.UploadView
	e.call("POST", "/api/v1/media/upload", req(100, 60), 200, &s60)
	e.call("POST", "/api/v1/media/upload", req(100, 86400), 200, &sDay)
	if !s60.ExpiresAt.Equal(s60.CreatedAt.Add(time.Minute)) || !sDay.ExpiresAt.Equal(sDay.CreatedAt.Add(24*time.Hour)) {
		t.Errorf("expiresAt %v and %v for createdAt %v and %v; want +60 s and +86400 s", s60.ExpiresAt, sDay.ExpiresAt, s60.CreatedAt, sDay.CreatedAt)
	}
	var open []*httpapi.UploadView
	for range 6 {
		open = append(open, e.createUpload(pid, "b.mp4", 16))
	}
	r = e.do(e.key, "POST", "/api/v1/media/upload", req(16, nil))
	checkError(t, "a ninth pending session", r, 409, "conflict", map[string]any{"reason": "too_many_open_uploads", "limit": 8})
	// A rejected session is no longer open.
	s := open[0]
	etag := putOK(t, s.URL, []byte("sixteen bytes!!!"))
	e.complete(s, map[int]string{1: etag}, 422, nil)
	e.createUpload(pid, "c.mp4", 16)
	checkError(t, "a ninth pending session again", e.do(e.key, "POST", "/api/v1/media/upload", req(16, nil)),
		409, "conflict", map[string]any{"reason": "too_many_open_uploads"})
	// Sessions whose URLs ended over an hour ago do not count (the one
	// of 86400 s still does).
	e.clock.advance(time.Hour + time.Hour + time.Minute)
	for range 7 {
		e.createUpload(pid, "d.mp4", 16)
	}
	checkError(t, "a ninth pending session later", e.do(e.key, "POST", "/api/v1/media/upload", req(16, nil)),
		409, "conflict", map[string]any{"reason": "too_many_open_uploads"})
}

// TestMediaRetention: 24 hours after completion the media is no longer
// usable (409 media_expired), and the sweeper, which runs when the server
// starts, deletes its bytes and marks it expired; a pending session's
// parts go an hour after its URLs ended.
func TestMediaRetention(t *testing.T) {
	t.Parallel()
	dir, clock := t.TempDir(), &testClock{}
	var key, pid string
	var done, pending *httpapi.UploadView
	t.Run("before", func(t *testing.T) {
		e := reopenVideoEnv(t, dir, "", clock, nil)
		key = e.key
		pid = e.newProject("Retention", mediaIR)
		done = e.uploadFile(pid, fftest.Clip(t, fftest.ClipOptions{Seconds: 5}))
		pending = e.createUpload(pid, "pending.mp4", 1000)
		putOK(t, pending.URL, bytes.Repeat([]byte("p"), 1000))
		if !exists(blobFile(dir, done.ObjectKey)) || len(listDir(blobFile(dir, "uploads/"+pending.UploadID))) != 1 {
			t.Fatal("the media or the part is not in the blob store")
		}
		// Usable until mediaExpiresAt.
		clock.advance(done.MediaExpiresAt.Sub(clock.Now()) - time.Minute)
		c := e.render(map[string]any{"projectId": pid, "mode": "mux_soft", "preset": "youtube", "mediaObjectKey": done.ObjectKey})
		if j, _ := e.waitJob(c.JobID, 2*time.Minute, final); j.Status != "succeeded" {
			t.Errorf("mux_soft a minute before mediaExpiresAt: %+v", j)
		}
		clock.advance(2 * time.Minute)
		r := e.do(e.key, "POST", "/api/v1/jobs/render", map[string]any{"projectId": pid, "mode": "burn_in",
			"preset": "youtube", "mediaObjectKey": done.ObjectKey})
		checkError(t, "render after 24 h", r, 409, "conflict", map[string]any{"reason": "media_expired", "field": "mediaObjectKey"})
	})
	if t.Failed() {
		return
	}
	t.Run("restart", func(t *testing.T) {
		e := reopenVideoEnv(t, dir, key, clock, nil)
		start := time.Now()
		for {
			a, p := e.getUpload(done.UploadID), e.getUpload(pending.UploadID)
			if a.Status == "expired" && p.Status == "expired" {
				t.Logf("swept %v after the start", time.Since(start).Round(10*time.Millisecond))
				if exists(blobFile(dir, done.ObjectKey)) {
					t.Error("expired media still on disk")
				}
				if left := listDir(blobFile(dir, "uploads/"+pending.UploadID)); len(left) != 0 {
					t.Errorf("parts of the expired session still on disk: %v", left)
				}
				break
			}
			if time.Since(start) > 20*time.Second {
				t.Errorf("20 s after a start 24 h later: media %s (on disk: %v), pending session %s (parts on disk: %v); want both expired, their bytes deleted, by the sweep the server runs at start",
					a.Status, exists(blobFile(dir, done.ObjectKey)), p.Status, listDir(blobFile(dir, "uploads/"+pending.UploadID)))
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		r := e.do(e.key, "POST", "/api/v1/jobs/render", map[string]any{"projectId": pid, "mode": "mux_soft",
			"preset": "youtube", "mediaObjectKey": done.ObjectKey})
		checkError(t, "render of swept media", r, 409, "conflict", map[string]any{"reason": "media_expired"})
		r = e.complete(pending, map[int]string{1: sha256Hex(bytes.Repeat([]byte("p"), 1000))}, 409, nil)
		checkError(t, "complete of an expired session", r, 409, "conflict", nil)
		u := e.url + pending.URL[strings.Index(pending.URL, "/api/uploads/"):] // the restarted server's port
		checkError(t, "PUT to an expired session", put(t, u, bytes.NewReader(make([]byte, 1000)), 1000), 403, "forbidden",
			map[string]any{"reason": "expired"})
	})
}

// TestMediaUploadMemory: a 512 MiB upload through the signed URLs to a
// server process (parts of 16 MiB, streamed) grows the process's
// resident memory by far less than a part: the PUT path holds a copy
// buffer, not the part. Complete, which assembles and probes the file,
// is measured too.
func TestMediaUploadMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and writes 1 GiB")
	}
	race.Skip(t, "the detector's shadow memory would set the resident memory this test bounds")
	t.Parallel()
	fftest.Need(t)
	dir := t.TempDir()
	c := startChild(t, dir)
	e := childEnv(t, c, dir, c.secret)
	pid := e.newProject("Memory", mediaIR)
	m := newPaddedMedia(t, fftest.Clip(t, fftest.ClipOptions{Seconds: 5}), 512*mib)
	s := e.createUpload(pid, "big.mp4", m.size)
	if len(s.Parts) != 32 {
		t.Fatalf("%d parts; want 32 of 16 MiB", len(s.Parts))
	}
	pid0 := c.cmd.Process.Pid
	base := procStatus(t, pid0, "VmRSS")
	peak := sampleRSS(t, pid0)
	etags := map[int]string{}
	for _, p := range s.Parts {
		etags[p.PartNumber] = putSection(t, p.URL, m.part(p.PartNumber, s.PartSize))
	}
	putPeak := peak()
	hwm := procStatus(t, pid0, "VmHWM")
	afterPut := procStatus(t, pid0, "VmRSS")
	peak = sampleRSS(t, pid0)
	var done httpapi.UploadView
	e.complete(s, etags, 200, &done)
	completePeak := peak()
	checkCompleted(t, &done, 5)
	t.Logf("512 MiB in 32 PUTs: VmRSS %d MiB before, peak %d MiB (+%d MiB) during the PUTs, VmHWM %d MiB; complete (assemble 512 MiB and probe): peak %d MiB (+%d MiB over after-PUT %d MiB)",
		base/mib, putPeak/mib, (putPeak-base)/mib, hwm/mib, completePeak/mib, (completePeak-afterPut)/mib, afterPut/mib)
	if putPeak-base >= 32*mib {
		t.Errorf("the PUTs grew the server's RSS by %d MiB (%d → %d); want under 32 MiB", (putPeak-base)/mib, base/mib, putPeak/mib)
	}
	if completePeak-afterPut >= 32*mib {
		t.Errorf("complete grew the server's RSS by %d MiB (%d → %d); want under 32 MiB", (completePeak-afterPut)/mib, afterPut/mib, completePeak/mib)
	}
}

// procStatus reads a size field (kB) of /proc/<pid>/status, in bytes.
func procStatus(t testing.TB, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + field + `:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no %s in /proc/%d/status", field, pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// sampleRSS samples a process's VmRSS every 10 ms until the returned
// function is called, which returns the highest value seen.
func sampleRSS(t testing.TB, pid int) (stop func() int64) {
	t.Helper()
	var mu sync.Mutex
	var peak int64
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err == nil {
				if m := regexp.MustCompile(`(?m)^VmRSS:\s+(\d+) kB`).FindSubmatch(b); m != nil {
					kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
					mu.Lock()
					peak = max(peak, kb<<10)
					mu.Unlock()
				}
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	})
	return func() int64 {
		close(quit)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// TestMediaPutClientHangsUp: a client that drops a part's PUT halfway is
// the client's doing: the request is logged at info with 400
// incomplete_part, never as a 500 internal error, and the part can be
// sent again.
func TestMediaPutClientHangsUp(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Hang-up", mediaIR)
	b, err := os.ReadFile(fftest.Clip(t, fftest.ClipOptions{Seconds: 5}))
	if err != nil {
		t.Fatal(err)
	}
	s := e.createUpload(pid, "clip.mp4", int64(len(b)))
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n", u.RequestURI(), u.Host, len(b))
	if _, err := conn.Write(b[:len(b)/2]); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	// The state: the server has logged the request.
	var line string
	for deadline := time.Now().Add(20 * time.Second); line == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, l := range strings.Split(e.log.String(), "\n") {
			if strings.Contains(l, `msg="http request"`) && strings.Contains(l, "method=PUT") {
				line = l
			}
		}
	}
	if line == "" {
		t.Fatalf("no access line for the dropped PUT:\n%s", e.log.String())
	}
	if !strings.Contains(line, "status=400") || !strings.Contains(line, "level=INFO") || strings.Contains(e.log.String(), "internal error") {
		t.Errorf("the dropped PUT was logged as %q; want info, 400, no internal error", line)
	}
	putOK(t, s.URL, b)
}

// TestMediaPictureCaps: complete refuses a video whose picture or frame
// rate is past the caps (a 3-frame 8192x8192 file is a few hundred KB
// and a burn-in of gigabytes), and takes one at the caps.
func TestMediaPictureCaps(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Caps", mediaIR)
	for _, c := range []struct {
		name       string
		clip       fftest.ClipOptions
		wantReason string // "": completed
	}{
		{"8192x8192", fftest.ClipOptions{Width: 8192, Height: 8192, FPS: 1, Seconds: 3, Container: "mkv", NoAudio: true}, "picture_too_large"},
		{"240 fps", fftest.ClipOptions{Width: 160, Height: 90, FPS: 240, Seconds: 1, NoAudio: true}, "frame_rate_too_high"},
		{"4096x2304 at 120 fps", fftest.ClipOptions{Width: 4096, Height: 2304, FPS: 120, Seconds: 0.05, NoAudio: true}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := os.ReadFile(fftest.Clip(t, c.clip))
			if err != nil {
				t.Fatal(err)
			}
			s := e.createUpload(pid, "clip.mp4", int64(len(b)))
			etag := putOK(t, s.URL, b)
			if c.wantReason == "" {
				e.complete(s, map[int]string{1: etag}, 200, nil)
				return
			}
			var env apperr.Envelope
			e.complete(s, map[int]string{1: etag}, 422, &env)
			if env.Error.Code != "processing_failed" || env.Error.Details["reason"] != c.wantReason {
				t.Errorf("complete: %+v; want processing_failed %s", env.Error, c.wantReason)
			}
		})
	}
}

// rawPartPut starts a PUT of n declared bytes to u on a connection of its
// own and sends first; the caller sends the rest or hangs.
func rawPartPut(t *testing.T, u string, n int, first []byte) net.Conn {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n", pu.RequestURI(), pu.Host, n)
	if _, err := conn.Write(first); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestMediaPartTrickle: a part trickled in slower than the minimum rate
// is ended with 400 too_slow once the grace has passed, and one upload
// holds at most MaxPartPutsPerUpload PUTs at once (429 beyond).
func TestMediaPartTrickle(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, func(c *server.Config) { c.MinPartRate, c.PartRateGrace = 64<<10, 300*time.Millisecond })
	pid := e.newProject("Trickle", mediaIR)
	const size = 1 << 20
	s := e.createUpload(pid, "clip.mp4", size)

	conn := rawPartPut(t, s.URL, size, []byte{0})
	stop := make(chan struct{})
	go func() { // a byte every 50 ms: 20 B/s
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := conn.Write([]byte{0}); err != nil {
					return
				}
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	close(stop)
	if err != nil {
		t.Fatalf("no answer to the trickled part: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 400 || !strings.Contains(string(body), `"too_slow"`) {
		t.Errorf("trickled part: %d %s; want 400 too_slow", res.StatusCode, body)
	}

	// Four PUTs hanging on one upload: a fifth is refused. A hanging one
	// that met the fifth at the gate was refused itself and is answered:
	// it is opened again, until the fifth meets all four there.
	slow := newVideoEnv(t, nil)
	sp := slow.newProject("Parallel", mediaIR)
	s2 := slow.createUpload(sp, "clip.mp4", size)
	hanging := make([]net.Conn, httpapi.MaxPartPutsPerUpload)
	full := bytes.Repeat([]byte{1}, size)
	var last response
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		for i, c := range hanging {
			if c == nil || answeredConn(c) {
				hanging[i] = rawPartPut(t, s2.URL, size, []byte{0})
			}
		}
		if last = put(t, s2.URL, bytes.NewReader(full), size); last.Status == 429 {
			break
		}
	}
	checkError(t, "a fifth PUT of one upload", last, 429, "rate_limited", map[string]any{"limit": "part_puts_per_upload"})
}

// answeredConn reports whether the server has answered on c (or closed
// it), without waiting for an answer that has not come.
func answeredConn(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
	var b [1]byte
	_, err := c.Read(b[:])
	_ = c.SetReadDeadline(time.Time{})
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}
