package server_test

import (
	"bytes"
	"context"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// Shared support of the media upload and video job tests (media_test.go,
// video_test.go, video_kill_test.go, media_bench_test.go).

// testClock is a server clock the test moves forward: real time plus an
// offset, so that timers and the job queue keep running.
type testClock struct{ off atomic.Int64 }

func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.off.Load())) }

// advance moves the clock forward by d.
func (c *testClock) advance(d time.Duration) { c.off.Add(int64(d)) }

// videoEnv is an in-process server with media and video on, over real
// HTTP on loopback, its data folder, its clock and the owner's key.
type videoEnv struct {
	t     testing.TB
	srv   *server.Server
	url   string // origin: http://127.0.0.1:port
	key   string
	dir   string
	clock *testClock
	log   *logBuffer
	c     *contract.Contract
}

// videoConfig is the configuration of a test server on dir: loopback,
// a fast job queue, no burst limits, clock's time.
func videoConfig(dir string, clock *testClock) server.Config {
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", dir
	cfg.JobPollInterval = 100 * time.Millisecond
	cfg.MaxUploads, cfg.MaxUploadsPerClient = 100, 100
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	cfg.Now = clock.Now
	return cfg
}

// newVideoEnv runs a server on a fresh data folder until t ends; edit,
// when set, adjusts its configuration.
func newVideoEnv(t testing.TB, edit func(*server.Config)) *videoEnv {
	t.Helper()
	return reopenVideoEnv(t, t.TempDir(), "", &testClock{}, edit)
}

// reopenVideoEnv runs a server on dir (a restart when dir was served
// before: key is then the owner key the first start printed) until t
// ends.
func reopenVideoEnv(t testing.TB, dir, key string, clock *testClock, edit func(*server.Config)) *videoEnv {
	t.Helper()
	fftest.Need(t)
	cfg := videoConfig(dir, clock)
	log := withLog(&cfg)
	if edit != nil {
		edit(&cfg)
	}
	srv := server.New(cfg)
	if k := runServer(t, srv); k != "" {
		key = k
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log (end):\n%s", tail(log.String(), 6000))
		}
	})
	return &videoEnv{t: t, srv: srv, url: srv.URL(), key: key, dir: dir, clock: clock, log: log, c: contract.Load(t)}
}

// childEnv is a videoEnv on a server child process serving dir; key is
// the owner key its first start printed.
func childEnv(t testing.TB, c *child, dir, key string) *videoEnv {
	t.Helper()
	fftest.Need(t)
	return &videoEnv{t: t, url: c.url, key: key, dir: dir, clock: &testClock{}, c: contract.Load(t)}
}

// with returns e reporting to t (a subtest's).
func (e *videoEnv) with(t testing.TB) *videoEnv {
	c := *e
	c.t = t
	return &c
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// response is one exchange's answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// do sends a request to the server (path is /api/... with its query)
// with key as the Bearer token ("" for none) and a JSON body (a string
// is sent as is, nil sends nothing, anything else is marshalled). A v1
// answer is checked against the served contract.
func (e *videoEnv) do(key, method, path string, body any) response {
	e.t.Helper()
	var r io.Reader
	var sent []byte
	switch b := body.(type) {
	case nil:
	case string:
		sent = []byte(b)
		r = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		sent = j
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.url+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if r != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	if strings.HasPrefix(path, "/api/v1/") {
		e.c.ValidateExchange(e.t, req, sent, res.StatusCode, res.Header, b)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// call is do with the owner's key, failing the test unless the status
// is want; out, when not nil, receives the JSON body.
func (e *videoEnv) call(method, path string, body any, want int, out any) response {
	e.t.Helper()
	return e.callAs(e.key, method, path, body, want, out)
}

// callAs is call with another key.
func (e *videoEnv) callAs(key, method, path string, body any, want int, out any) response {
	e.t.Helper()
	r := e.do(key, method, path, body)
	if r.Status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	if out != nil {
		if err := json.Unmarshal(r.Body, out); err != nil {
			e.t.Fatalf("%s %s: %v: %s", method, path, err, r.Body)
		}
	}
	return r
}

// checkError fails t unless r is status with the envelope's code and
// every detail of want (numbers compare as float64).
func checkError(t testing.TB, what string, r response, status int, code string, want map[string]any) {
	t.Helper()
	var e apperr.Envelope
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Errorf("%s: %d %s: not the error envelope (%v)", what, r.Status, r.Body, err)
		return
	}
	if r.Status != status || e.Error.Code != code {
		t.Errorf("%s: %d %s; want %d %s", what, r.Status, r.Body, status, code)
		return
	}
	for k, v := range want {
		got := e.Error.Details[k]
		if n, ok := v.(int); ok {
			v = float64(n)
		}
		if n, ok := v.(int64); ok {
			v = float64(n)
		}
		if got != v {
			t.Errorf("%s: details.%s = %v; want %v (%s)", what, k, got, v, r.Body)
		}
	}
}

// mediaIR is the timeline of the video tests: English, three cues inside
// the first 10 s, with a gap from 4 s to 6 s.
const mediaIR = `{"version":1,"language":"en","cues":[
{"id":"1","startMs":1000,"endMs":4000,"text":"Welcome back to the harbour show."},
{"id":"2","startMs":6000,"endMs":7500,"text":"Tonight: the tide tables."},
{"id":"3","startMs":8000,"endMs":9500,"text":"The ferry leaves at six."}]}`

// newProject creates a project with ir as its timeline ("": none) and
// returns its id.
func (e *videoEnv) newProject(name, ir string) string {
	e.t.Helper()
	var p httpapi.ProjectView
	body := map[string]any{"name": name}
	if ir != "" {
		body["ir"] = ir
	}
	e.call("POST", "/api/v1/projects", body, 201, &p)
	return p.ID
}

// partURLs returns a session's PUT URLs by part number (1 for a single
// URL).
func partURLs(s *httpapi.UploadView) map[int]httpapi.PartURLView {
	if !s.Multipart {
		return map[int]httpapi.PartURLView{1: {PartNumber: 1, URL: s.URL, Bytes: s.Bytes}}
	}
	m := map[int]httpapi.PartURLView{}
	for _, p := range s.Parts {
		m[p.PartNumber] = p
	}
	return m
}

// createUpload opens an upload session of size bytes in project pid.
func (e *videoEnv) createUpload(pid, filename string, size int64) *httpapi.UploadView {
	e.t.Helper()
	var s httpapi.UploadView
	e.call("POST", "/api/v1/media/upload", map[string]any{"projectId": pid, "filename": filename,
		"contentType": "video/mp4", "bytes": size}, 200, &s)
	return &s
}

// getUpload reads a session.
func (e *videoEnv) getUpload(id string) *httpapi.UploadView {
	e.t.Helper()
	var s httpapi.UploadView
	e.call("GET", "/api/v1/media/upload/"+id, nil, 200, &s)
	return &s
}

// complete completes s with the parts' etags.
func (e *videoEnv) complete(s *httpapi.UploadView, etags map[int]string, want int, out any) response {
	e.t.Helper()
	parts := []map[string]any{}
	for n := 1; n <= len(etags); n++ {
		parts = append(parts, map[string]any{"partNumber": n, "etag": etags[n]})
	}
	return e.call("POST", "/api/v1/media/upload/"+s.UploadID+"/complete", map[string]any{"projectId": s.ProjectID,
		"objectKey": s.ObjectKey, "multipart": s.Multipart, "parts": parts}, want, out)
}

// put sends body to a signed URL; n is the Content-Length to declare,
// -1 to send it chunked.
func put(t testing.TB, u string, body io.Reader, n int64) response {
	t.Helper()
	r, err := tryPut(u, body, n)
	if err != nil {
		t.Fatalf("PUT %s: %v", u, err)
	}
	return r
}

// tryPut is put returning a transport error; it may be called from any
// goroutine.
func tryPut(u string, body io.Reader, n int64) (response, error) {
	if n < 0 {
		body = struct{ io.Reader }{body} // hide the length: chunked
	}
	req, err := http.NewRequest("PUT", u, body)
	if err != nil {
		return response{}, err
	}
	req.ContentLength = n // -1: unknown, sent chunked
	req.Header.Set("Content-Type", "application/octet-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}, err
}

// putOK sends b to a signed URL and returns the etag it answered, after
// checking the answer: 200, ETag header the quoted SHA-256 of b.
func putOK(t testing.TB, u string, b []byte) string {
	t.Helper()
	r := put(t, u, bytes.NewReader(b), int64(len(b)))
	return checkPut(t, r, sha256Hex(b), int64(len(b)))
}

// checkPut checks a part's 200 answer and returns its etag.
func checkPut(t testing.TB, r response, sum string, n int64) string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	var p httpapi.PartView
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("PUT answer %s: %v", r.Body, err)
	}
	if got := r.Header.Get("ETag"); got != `"`+sum+`"` {
		t.Errorf("ETag header %q; want the quoted SHA-256 %q", got, sum)
	}
	if p.ETag != sum || p.Bytes != n || p.PartNumber < 1 {
		t.Errorf("PUT answer %s; want etag %s, %d bytes", r.Body, sum, n)
	}
	return p.ETag
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// uploadFile uploads the file at path (up to 64 MiB: one signed PUT)
// into project pid, completes it and returns the completed session.
func (e *videoEnv) uploadFile(pid, path string) *httpapi.UploadView {
	e.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	s := e.createUpload(pid, filepath.Base(path), int64(len(b)))
	etag := putOK(e.t, s.URL, b)
	var done httpapi.UploadView
	e.complete(s, map[int]string{1: etag}, 200, &done)
	return &done
}

// paddedMedia is a valid MP4 of any size made without a file: a short
// clip followed by a top-level "free" box of pseudo-random bytes, which
// players and ffprobe skip. It is an io.ReaderAt, so each part of a
// multipart upload is a section of it.
type paddedMedia struct {
	head  []byte // the clip and the box header
	size  int64
	noise []byte // repeated
}

// newPaddedMedia pads the clip at path to size bytes.
func newPaddedMedia(t testing.TB, clip string, size int64) *paddedMedia {
	t.Helper()
	b, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	pad := size - int64(len(b))
	if pad < 8 || pad > 1<<32-1 {
		t.Fatalf("cannot pad a clip of %d bytes to %d", len(b), size)
	}
	head := binary.BigEndian.AppendUint32(b, uint32(pad))
	head = append(head, "free"...)
	noise := make([]byte, 1<<20+7) // not a power of two: parts differ
	r := rand.New(rand.NewChaCha8([32]byte{1, 2, 3}))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	return &paddedMedia{head: head, size: size, noise: noise}
}

func (m *paddedMedia) ReadAt(p []byte, off int64) (int, error) {
	if off >= m.size {
		return 0, io.EOF
	}
	if rest := m.size - off; int64(len(p)) > rest {
		p = p[:rest]
	}
	n := 0
	for n < len(p) {
		o := off + int64(n)
		if o < int64(len(m.head)) {
			n += copy(p[n:], m.head[o:])
			continue
		}
		i := (o - int64(len(m.head))) % int64(len(m.noise))
		n += copy(p[n:], m.noise[i:])
	}
	if off+int64(n) == m.size {
		return n, io.EOF
	}
	return n, nil
}

// part returns the bytes of part n of a session of m with partSize.
func (m *paddedMedia) part(n int, partSize int64) *io.SectionReader {
	off := int64(n-1) * partSize
	return io.NewSectionReader(m, off, min(partSize, m.size-off))
}

// sum returns the SHA-256 (hex) of the section.
func sectionSum(t testing.TB, r *io.SectionReader) string {
	t.Helper()
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, r.Size())); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// putSection sends a section to a signed URL and checks the answer.
func putSection(t testing.TB, u string, r *io.SectionReader) string {
	t.Helper()
	sum := sectionSum(t, r)
	return checkPut(t, put(t, u, io.NewSectionReader(r, 0, r.Size()), r.Size()), sum, r.Size())
}

// signPart signs part of an upload as the server does, with the key it
// derives from the data folder's install secret: the only way to reach
// the checks that come after the signature's with a part number the
// server never signed.
func signPart(t testing.TB, dir, uploadID string, part int, expires int64) string {
	t.Helper()
	secret, err := os.ReadFile(filepath.Join(dir, server.InstallKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	key, err := hkdf.Key(sha256.New, secret, nil, "captionqa media upload key v1", 32)
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "PUT\n/uploads/%s/%d\n%d", uploadID, part, expires)
	return "/api/uploads/" + uploadID + "/" + strconv.Itoa(part) + "?" +
		url.Values{"expires": {strconv.FormatInt(expires, 10)}, "sig": {hex.EncodeToString(m.Sum(nil))}}.Encode()
}

// blobFile is where the data folder's blob store keeps key.
func blobFile(dir, key string) string {
	return filepath.Join(dir, server.BlobsDir, filepath.FromSlash(key))
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// listDir lists a folder's entries ("" for none, or a missing folder).
func listDir(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// jobCreated is the 202 of a job's creation: a copy of httpapi's
// jobCreated, which is unexported (no exported type describes this body).
type jobCreated struct {
	JobID                 string `json:"jobId"`
	Status                string `json:"status"`
	Kind                  string `json:"kind"`
	EstimatedWaitSeconds  int    `json:"estimatedWaitSeconds"`
	RemainingAPIRunsToday int    `json:"remainingApiRunsToday"`
}

// render queues a render job and returns its id.
func (e *videoEnv) render(req map[string]any) jobCreated {
	e.t.Helper()
	var c jobCreated
	r := e.call("POST", "/api/v1/jobs/render", req, 202, &c)
	if c.Status != "queued" || c.Kind != "render" || c.JobID == "" {
		e.t.Errorf("render %v: %s; want a queued render job", req, r.Body)
	}
	if loc := r.Header.Get("Location"); loc != "/api/v1/jobs/"+c.JobID {
		e.t.Errorf("render: Location %q", loc)
	}
	return c
}

// getJob reads a job.
func (e *videoEnv) getJob(id string) *httpapi.JobView {
	e.t.Helper()
	var j struct { // httpapi's jobResult is unexported: its one member
		Job httpapi.JobView `json:"job"`
	}
	e.call("GET", "/api/v1/jobs/"+id, nil, 200, &j)
	return &j.Job
}

// waitJob polls a job every 100 ms until done says so, up to limit, and
// returns it with the progress values seen. It fails t when progress
// goes back within one run (a new run after a restart, queued again or
// with another startedAt, starts at 0).
func (e *videoEnv) waitJob(id string, limit time.Duration, done func(*httpapi.JobView) bool) (*httpapi.JobView, []float64) {
	e.t.Helper()
	deadline := time.Now().Add(limit)
	var seen []float64
	var run *time.Time // the startedAt of the run seen last
	for {
		j := e.getJob(id)
		newRun := j.Status == "queued" || (run != nil && j.StartedAt != nil && !j.StartedAt.Equal(*run))
		if n := len(seen); n > 0 && j.Progress < seen[n-1] && !newRun {
			e.t.Errorf("job %s: progress went back from %v to %v", id, seen[n-1], j.Progress)
		}
		if j.StartedAt != nil {
			run = j.StartedAt
		}
		seen = append(seen, j.Progress)
		if done(j) {
			return j, seen
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %s after %v: %+v", id, limit, j)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// final reports whether a job ended.
func final(j *httpapi.JobView) bool {
	return j.Status == "succeeded" || j.Status == "failed" || j.Status == "canceled"
}

// download fetches an artifact through a signed link and returns its
// bytes.
func (e *videoEnv) download(artifactID string) []byte {
	e.t.Helper()
	// Part of the link's body: httpapi's artifactURL is unexported.
	var l struct {
		URL   string `json:"url"`
		Bytes int64  `json:"bytes"`
	}
	e.call("GET", "/api/v1/artifacts/"+artifactID, nil, 200, &l)
	res, err := http.Get(l.URL)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 || int64(len(b)) != l.Bytes {
		e.t.Fatalf("download %s: %d, %d bytes of %d, %v", artifactID, res.StatusCode, len(b), l.Bytes, err)
	}
	return b
}

// writeTemp writes b to a file named name in a temporary folder.
func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// usedToday reads the account's daily pool count.
func (e *videoEnv) usedToday(key string) int {
	e.t.Helper()
	// Part of the usage body: httpapi's usageResponse is unexported.
	var u struct {
		UsedToday int `json:"usedToday"`
	}
	e.callAs(key, "GET", "/api/v1/usage", nil, 200, &u)
	return u.UsedToday
}

// otherAccount creates a pro account and returns a key of it.
func (e *videoEnv) otherAccount(email string) string {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.srv.Accounts().CreateAccount(ctx, account.NewAccount{Email: email, Tier: account.TierPro})
	if err != nil {
		e.t.Fatal(err)
	}
	_, secret, err := e.srv.Accounts().CreateKey(ctx, a.ID, account.NewKey{Name: "other", Scopes: account.Scopes()})
	if err != nil {
		e.t.Fatal(err)
	}
	return secret
}

// ffprobeJSON runs ffprobe on file and decodes its JSON.
func ffprobeJSON(t testing.TB, file string, out any, args ...string) {
	t.Helper()
	cmd := exec.Command("ffprobe", append([]string{"-v", "error", "-of", "json"}, append(args, file)...)...)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", file, err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("ffprobe %s: %v", file, err)
	}
}

// duration returns a media file's duration as ffprobe reads it.
func duration(t testing.TB, file string) float64 {
	t.Helper()
	var f struct {
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	ffprobeJSON(t, file, &f, "-show_format")
	d, err := strconv.ParseFloat(f.Format.Duration, 64)
	if err != nil {
		t.Fatalf("duration of %s: %q", file, f.Format.Duration)
	}
	return d
}

// streamMD5 returns the MD5 of the packets of one stream (spec: ffmpeg's
// stream specifier, "v:0" or "a:0") copied out of file: equal for a
// stream that was stream-copied.
func streamMD5(t testing.TB, file, spec string) string {
	t.Helper()
	cmd := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", file, "-map", "0:"+spec, "-c", "copy", "-f", "md5", "-")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("md5 of %s %s: %v", file, spec, err)
	}
	return strings.TrimSpace(string(b))
}

// workProcs lists the processes whose working folder is under the data
// folder's work folder (ffmpeg runs in its run folder there).
func workProcs(dir string) []string {
	work, _ := filepath.Abs(filepath.Join(dir, "work"))
	entries, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd, work+string(filepath.Separator)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return found
}
