package cluster_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/s3test"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// mediaIR is the timeline of the video tests: three cues in the first
// 10 s.
const mediaIR = `{"version":1,"language":"en","cues":[
{"id":"1","startMs":500,"endMs":1800,"text":"Welcome back to the harbour show."},
{"id":"2","startMs":6000,"endMs":7500,"text":"Tonight: the tide tables."},
{"id":"3","startMs":8000,"endMs":9500,"text":"The ferry leaves at six."}]}`

// newProject creates a project with mediaIR through the node at url and
// returns its id.
func newProject(t testing.TB, url, secret, name string) string {
	t.Helper()
	var p httpapi.ProjectView
	call(t, "POST", url+"/api/v1/projects", secret, map[string]any{"name": name, "ir": mediaIR}, 201, &p)
	return p.ID
}

// upload uploads b as project pid's media through the node at url (the
// session, each part's signed PUT, complete) and returns the completed
// session.
func upload(t testing.TB, url, secret, pid, filename string, b []byte) *httpapi.UploadView {
	t.Helper()
	s := openUpload(t, url, secret, pid, filename, b)
	return completeUpload(t, url, secret, pid, s, putParts(t, s, b))
}

// openUpload opens an upload session of b through the node at url.
func openUpload(t testing.TB, url, secret, pid, filename string, b []byte) *httpapi.UploadView {
	t.Helper()
	var s httpapi.UploadView
	call(t, "POST", url+"/api/v1/media/upload", secret, map[string]any{"projectId": pid, "filename": filename,
		"contentType": "video/mp4", "bytes": len(b)}, 200, &s)
	return &s
}

// part is a sent part as complete lists it: a request body (httpapi's
// partRequest is unexported).
type part struct {
	PartNumber int    `json:"partNumber"`
	ETag       string `json:"etag"`
}

// putParts PUTs b's parts to the session's URLs, wherever they point,
// and returns them with the ETags the PUTs answered: in the node's JSON
// answer, or in the ETag header alone (the object store's answer), as
// the web page reads it.
func putParts(t testing.TB, s *httpapi.UploadView, b []byte) []part {
	t.Helper()
	var parts []part
	put := func(n int, u string, data []byte) {
		r, err := send("PUT", u, "", "application/octet-stream", bytes.NewReader(data))
		if err != nil || r.Status != 200 {
			t.Fatalf("PUT part %d: %v %v", n, r, err)
		}
		var p httpapi.PartView
		_ = json.Unmarshal(r.Body, &p)
		if p.ETag == "" {
			p.ETag = strings.Trim(r.Header.Get("ETag"), `"`)
		}
		if p.ETag == "" {
			t.Fatalf("PUT part %d answered no ETag: %s", n, r.Body)
		}
		parts = append(parts, part{PartNumber: n, ETag: p.ETag})
	}
	if !s.Multipart {
		put(1, s.URL, b)
	}
	off := int64(0)
	for _, p := range s.Parts {
		put(p.PartNumber, p.URL, b[off:off+p.Bytes])
		off += p.Bytes
	}
	return parts
}

// completeUpload completes the session through the node at url and
// returns the completed session.
func completeUpload(t testing.TB, url, secret, pid string, s *httpapi.UploadView, parts []part) *httpapi.UploadView {
	t.Helper()
	var done httpapi.UploadView
	call(t, "POST", url+"/api/v1/media/upload/"+s.UploadID+"/complete", secret, map[string]any{"projectId": pid,
		"objectKey": s.ObjectKey, "multipart": s.Multipart, "parts": parts}, 200, &done)
	if done.Status != "completed" || done.Probe == nil {
		t.Fatalf("completed session %+v; want completed and probed", done)
	}
	return &done
}

// clip returns the bytes of a fftest clip of secs seconds.
func clip(t testing.TB, secs float64) []byte {
	t.Helper()
	b, err := os.ReadFile(fftest.Clip(t, fftest.ClipOptions{Seconds: secs}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// padded returns the clip followed by a top-level MP4 "free" box that
// makes the whole size bytes: a valid file that players and ffprobe read
// as the clip, big enough for a multipart upload.
func padded(t testing.TB, clip []byte, size int) []byte {
	t.Helper()
	pad := size - len(clip)
	if pad < 8 {
		t.Fatalf("cannot pad %d bytes to %d", len(clip), size)
	}
	b := make([]byte, 0, size)
	b = append(b, clip...)
	b = binary.BigEndian.AppendUint32(b, uint32(pad))
	b = append(b, "free"...)
	return append(b, make([]byte, pad-8)...)
}

// final reports whether a job ended.
func final(j *httpapi.JobView) bool {
	return j.Status == "succeeded" || j.Status == "failed" || j.Status == "canceled"
}

// render queues a render of media key in project pid through the node
// at url and returns the job's id.
func render(t testing.TB, url, secret, pid, mode, key string) string {
	t.Helper()
	var c struct { // part of the 202: httpapi's jobCreated is unexported
		JobID  string `json:"jobId"`
		Status string `json:"status"`
	}
	call(t, "POST", url+"/api/v1/jobs/render", secret, map[string]any{"projectId": pid, "mode": mode,
		"preset": "youtube", "mediaObjectKey": key}, 202, &c)
	if c.JobID == "" || c.Status != "queued" {
		t.Fatalf("render: %+v; want a queued job", c)
	}
	return c.JobID
}

// getJob reads a job through the node at url.
func getJob(t testing.TB, url, secret, id string) *httpapi.JobView {
	t.Helper()
	var j struct { // httpapi's jobResult is unexported: its one member
		Job httpapi.JobView `json:"job"`
	}
	call(t, "GET", url+"/api/v1/jobs/"+id, secret, nil, 200, &j)
	return &j.Job
}

// waitJob polls a job through the node at url until done says so.
func waitJob(t testing.TB, url, secret, id string, limit time.Duration, done func(*httpapi.JobView) bool) *httpapi.JobView {
	t.Helper()
	var j *httpapi.JobView
	eventually(t, limit, func() bool {
		j = getJob(t, url, secret, id)
		return done(j)
	}, func() string { b, _ := json.Marshal(j); return "job " + string(b) })
	return j
}

// link is a signed artifact link (the OpenAPI operation getArtifactURL):
// part of its body, as httpapi's artifactURL is unexported.
type link struct {
	URL   string `json:"url"`
	Bytes int64  `json:"bytes"`
}

// download fetches a URL without a key and returns its body, failing t
// unless it is 200.
func download(t testing.TB, u string) []byte {
	t.Helper()
	res, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v: %.300s", u, res.StatusCode, err, b)
	}
	return b
}

// testUploadRenderDownload: a multipart upload through node 1, its
// render accepted by node 2 and worked by any node, the artifact's link
// signed by node 3 and downloaded there, then the same link's path from
// nodes 1 and 2 (the signing keys are the cluster's): every download is
// the bytes the job reports, and they are the same bytes.
func testUploadRenderDownload(t *testing.T, c *cluster) {
	k := c.account(t, "media@example.com", "pro", allScopes...)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	pid := newProject(t, n1.url, k.Secret, "Harbour")
	// Over 64 MiB: a multipart session (parts of 16 MiB).
	media := padded(t, clip(t, 3), 64<<20+1<<20)
	began := time.Now()
	s := upload(t, n1.url, k.Secret, pid, "harbour.mp4", media)
	if !s.Multipart {
		t.Errorf("a %d-byte upload was not multipart", len(media))
	}
	uploaded := time.Since(began)
	id := render(t, n2.url, k.Secret, pid, "mux_soft", s.ObjectKey)
	j := waitJob(t, n3.url, k.Secret, id, 2*time.Minute, final)
	if j.Status != "succeeded" || len(j.Artifacts) != 1 || j.Artifacts[0].Bytes <= 0 || j.StartedAt == nil || j.FinishedAt == nil {
		t.Fatalf("render ended %+v; want succeeded with one artifact", j)
	}
	var l link
	call(t, "GET", n3.url+"/api/v1/artifacts/"+j.Artifacts[0].ArtifactID, k.Secret, nil, 200, &l)
	if !strings.HasPrefix(l.URL, n3.url+"/") || l.Bytes != j.Artifacts[0].Bytes {
		t.Errorf("link %+v; want one on %s of the job's %d bytes", l, n3.url, j.Artifacts[0].Bytes)
	}
	got := download(t, l.URL)
	if int64(len(got)) != j.Artifacts[0].Bytes {
		t.Errorf("downloaded %d bytes through node 3; the job reports %d", len(got), j.Artifacts[0].Bytes)
	}
	path := strings.TrimPrefix(l.URL, n3.url)
	for _, n := range []*node{n1, n2} {
		if b := download(t, n.url+path); !bytes.Equal(b, got) {
			t.Errorf("node 3's link on %s: %d bytes, not node 3's %d", n.name, len(b), len(got))
		}
	}
	t.Logf("%d MiB uploaded in parts through node 1 in %v; rendered (node 2 accepted it) %v after it started; %d bytes downloaded through nodes 3, 1 and 2",
		len(media)>>20, uploaded.Round(time.Millisecond), j.FinishedAt.Sub(*j.StartedAt), len(got))
}

// TestUploadPresigned runs three nodes whose blob store presigns
// (presign=true in --blobs): a multipart session opened through node 3
// gives the store's own URLs, the parts go straight to the store, node 1
// completes the session from what the store holds, node 2 accepts its
// render, and the artifact's link from node 3 answers 302 to the store,
// whose answer is the job's bytes.
func TestUploadPresigned(t *testing.T) {
	if testing.Short() {
		t.Skip("starts cluster nodes")
	}
	t.Parallel()
	// The nodes' bucket, presigning: a later --blobs overrides the one
	// newCluster gives (the flag's last value wins); the credentials are
	// the test server's, the same for every bucket.
	tg := s3test.Bucket(t)
	c := newCluster(t, append([]string{"--blobs", tg.URL() + "&presign=true"}, burstOff...), roleAll, roleAll, roleAll)
	k := c.account(t, "presigned@example.com", "pro", allScopes...)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	pid := newProject(t, n1.url, k.Secret, "Harbour")
	media := padded(t, clip(t, 3), 64<<20+1<<20)
	began := time.Now()
	s := openUpload(t, n3.url, k.Secret, pid, "harbour.mp4", media)
	if !s.Multipart || len(s.Parts) < 2 {
		t.Fatalf("a %d-byte upload has %d parts; want a multipart session", len(media), len(s.Parts))
	}
	for _, p := range s.Parts {
		if !strings.HasPrefix(p.URL, tg.Endpoint+"/"+tg.Bucket+"/") {
			t.Fatalf("part %d's URL %s is not the store's (%s)", p.PartNumber, p.URL, tg.Endpoint)
		}
	}
	done := completeUpload(t, n1.url, k.Secret, pid, s, putParts(t, s, media))
	uploaded := time.Since(began)
	id := render(t, n2.url, k.Secret, pid, "mux_soft", done.ObjectKey)
	j := waitJob(t, n3.url, k.Secret, id, 2*time.Minute, final)
	if j.Status != "succeeded" || len(j.Artifacts) != 1 || j.Artifacts[0].Bytes <= 0 || j.StartedAt == nil || j.FinishedAt == nil {
		t.Fatalf("render ended %+v; want succeeded with one artifact", j)
	}
	var l link
	call(t, "GET", n3.url+"/api/v1/artifacts/"+j.Artifacts[0].ArtifactID, k.Secret, nil, 200, &l)
	noFollow := &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	res, err := noFollow.Get(l.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	to := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || !strings.HasPrefix(to, tg.Endpoint+"/"+tg.Bucket+"/") {
		t.Fatalf("GET %s: %d to %q; want 302 to the store", l.URL, res.StatusCode, to)
	}
	if got := download(t, to); int64(len(got)) != j.Artifacts[0].Bytes {
		t.Errorf("downloaded %d bytes from the store; the job reports %d", len(got), j.Artifacts[0].Bytes)
	}
	t.Logf("%d MiB uploaded in %d parts straight to the store and completed through node 1 in %v; rendered in %v; %d bytes downloaded from the store",
		len(media)>>20, len(s.Parts), uploaded.Round(time.Millisecond), j.FinishedAt.Sub(*j.StartedAt), j.Artifacts[0].Bytes)
}
