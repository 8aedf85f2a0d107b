package e2e

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// mediaSRT is a timeline inside the 6 s test clip.
const mediaSRT = `1
00:00:00,500 --> 00:00:02,000
Welcome back to the harbour show.

2
00:00:02,500 --> 00:00:04,000
Tonight: the tide tables.

3
00:00:04,500 --> 00:00:05,800
The ferry leaves at six.
`

// testClip makes a 6 s 640x360 H.264/AAC MP4 (testsrc2 and a sine tone)
// with ffmpeg, its index at the front.
func testClip(t *testing.T, name string) string {
	t.Helper()
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatal("ffmpeg is not installed; the media tests need it (apt-get install ffmpeg)")
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command(ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
		"-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=6",
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=6",
		"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
		"-c:a", "aac", "-ac", "2", "-b:a", "96k", "-shortest", "-movflags", "+faststart", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	return out
}

// paddedClip is the test clip followed by a top-level MP4 "free" box, so
// the file is size bytes (more than one signed PUT takes: a multipart
// upload) and still reads as the same 6 s video.
func paddedClip(t *testing.T, size int) string {
	t.Helper()
	src, err := os.ReadFile(testClip(t, "base.mp4"))
	if err != nil {
		t.Fatal(err)
	}
	pad := size - len(src)
	if pad < 16 {
		t.Fatalf("clip of %d bytes is larger than %d", len(src), size)
	}
	buf := make([]byte, size)
	copy(buf, src)
	binary.BigEndian.PutUint32(buf[len(src):], uint32(pad))
	copy(buf[len(src)+4:], "free")
	out := filepath.Join(t.TempDir(), "harbour long.mp4")
	if err := os.WriteFile(out, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// mediaProject creates a project with mediaSRT as its timeline and returns its id.
func mediaProject(t *testing.T, e *env, name string) string {
	t.Helper()
	ct, body := multipartForm(t, name+".srt", []byte(mediaSRT), map[string]string{"name": name})
	status, raw := e.api(t, "POST", "/api/v1/projects", ct, body, "")
	var p httpapi.ProjectView
	if status != 201 || json.Unmarshal(raw, &p) != nil || p.ID == "" {
		t.Fatalf("create project: %d %s", status, raw)
	}
	return p.ID
}

// newMediaEnv is newEnv with the server running as `captionqa serve` runs
// it (Server.Run on a loopback port), so its job queue works the video
// jobs with the real ffmpeg.
func newMediaEnv(t *testing.T) *env {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.JobPollInterval = 100 * time.Millisecond
	srv := server.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	if err := srv.Open(ctx); err != nil {
		cancel()
		t.Fatalf("open server: %v", err)
	}
	if _, err := srv.Accounts().SetPassword(ctx, ownerEmail, ownerPassword); err != nil {
		cancel()
		_ = srv.Close()
		t.Fatalf("set password: %v", err)
	}
	if err := srv.Listen(); err != nil {
		cancel()
		_ = srv.Close()
		t.Fatalf("listen: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server run: %v", err)
		}
	})
	return &env{srv: srv, ts: &httptest.Server{URL: srv.URL()}, secret: srv.Owner().Secret}
}

// waitLong is waitJS with a longer limit, for uploads and jobs.
func (b *tab) waitLong(what, expr string, limit time.Duration, explain string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit+5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(limit))); err != nil {
		state := ""
		if explain != "" {
			state = "\npage: " + eval[string](b, explain)
		}
		b.t.Fatalf("waiting for %s (%s): %v%s", what, expr, err, state)
	}
}

// waitAcrossReload is waitLong for a state the page reaches after it
// reloads itself: a poll cut off by the navigation (its JavaScript context
// destroyed) is started again in the new page.
func (b *tab) waitAcrossReload(what, expr string, limit time.Duration, explain string) {
	b.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, time.Until(deadline)+5*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		cancel()
		if err == nil {
			return
		}
		// Only the poll's own timeout ends the wait: any other error is
		// the navigation cutting the poll off (its context destroyed, the
		// page's document not there yet), so poll the new page.
		if !errors.Is(err, chromedp.ErrPollingTimeout) && time.Now().Before(deadline) {
			ctx, cancel := context.WithDeadline(b.ctx, deadline)
			_, _ = chromedp.Run(ctx, chromedp.WaitReady(chromedp.CSS("body"))) // the new page's document, then poll it
			cancel()
			continue
		}
		state := ""
		if explain != "" {
			state = "\npage: " + eval[string](b, explain)
		}
		b.t.Fatalf("waiting for %s (%s): %v%s", what, expr, err, state)
	}
}

// network sets the tab's emulated network conditions for every request.
func (b *tab) network(c network.Conditions) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		b.t.Fatalf("network enable: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{&c}}); err != nil {
		b.t.Fatalf("network conditions: %v", err)
	}
}

// textN is the text of sel with no-break spaces (between numbers and
// their units) made plain.
func (b *tab) textN(sel string) string {
	b.t.Helper()
	return strings.ReplaceAll(b.text(sel), "\u00a0", " ")
}

// jobRow is the selector of the newest job row of a mode.
func jobRow(mode string) string {
	return fmt.Sprintf(`#jobs-body tr[data-mode="%s"]`, mode)
}

const uploadState = `(document.getElementById("upload-panel")||{}).innerText || (document.getElementById("upload-error")||{}).innerText || ""`
const jobsState = `(document.getElementById("jobs-card")||{}).innerText || ""`

func TestMediaUploadRenderJobs(t *testing.T) {
	t.Parallel()
	clip := testClip(t, "harbour show.mp4")
	e := newMediaEnv(t)
	pid := mediaProject(t, e, "Harbour show")
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// The nav has Media & Jobs as a page; nothing is "soon" any more.
	if n := eval[int](b, `document.querySelectorAll("#nav .later, #nav .soon").length`); n != 0 {
		t.Errorf("the nav still has %d items coming later", n)
	}
	if got := b.textN("#nav"); strings.Contains(got, "soon") {
		t.Errorf("nav = %q", got)
	}
	if got := b.textN("#nav-media"); got != "Media & Jobs" {
		t.Errorf("nav item = %q", got)
	}
	b.run("media page", click("#nav-media"), chromedp.WaitVisible(chromedp.CSS("#upload-card")))
	// The test counts requests through resource timing: room for all of them.
	eval[bool](b, `(performance.setResourceTimingBufferSize(100000), true)`)
	if got := b.textN("#page-title"); got != "Media & Jobs" {
		t.Errorf("page title = %q", got)
	}
	if got := eval[string](b, `document.getElementById("nav-media").getAttribute("aria-current")`); got != "page" {
		t.Errorf("nav-media aria-current = %q", got)
	}
	// The only project is chosen, and named in the address.
	if got := eval[string](b, `document.getElementById("media-project").value`); got != pid {
		t.Errorf("project = %q, want %q", got, pid)
	}
	b.waitJS("address", fmt.Sprintf(`location.hash === "#/media/%s"`, pid))
	if got := eval[string](b, `[...document.getElementById("media-project").labels].map(l => l.textContent).join()`); got != "Project" {
		t.Errorf("project label = %q", got)
	}
	b.waitLong("empty lists", `!document.getElementById("media-empty").hidden && !document.getElementById("jobs-empty").hidden`, 10*time.Second, jobsState)
	if got := b.textN("#media-empty"); !strings.Contains(got, "Upload a video") {
		t.Errorf("media empty state = %q", got)
	}
	if got := b.textN("#jobs-empty"); !strings.Contains(got, "Start a render") {
		t.Errorf("jobs empty state = %q", got)
	}
	// Without media, mux and burn-in have nothing to pick.
	if !eval[bool](b, `document.getElementById("render-media").disabled`) {
		t.Error("the video picker is enabled with no media")
	}
	b.shots("50-media-empty")

	// Upload the clip through the file input: progress, then the probe.
	b.run("choose clip", chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{clip}))
	b.waitLong("upload done", `(document.getElementById("upload-panel")||{}).dataset.phase === "done" || (document.getElementById("upload-panel")||{}).dataset.phase === "stopped"`, 30*time.Second, uploadState)
	if ph := eval[string](b, `document.getElementById("upload-panel").dataset.phase`); ph != "done" {
		t.Fatalf("upload phase %q: %s", ph, eval[string](b, uploadState))
	}
	if got := b.textN("#upload-percent"); got != "100%" {
		t.Errorf("upload percent = %q", got)
	}
	if got := b.textN("#upload-state"); !strings.Contains(got, "Uploaded") || !strings.Contains(got, "H.264 640×360 30 fps") {
		t.Errorf("upload state = %q", got)
	}
	b.waitLong("media row", `document.querySelectorAll("#media-body tr[data-status=completed]").length === 1`, 10*time.Second, `document.getElementById("media-card").innerText`)
	row := b.textN("#media-body tr[data-status=completed]")
	for _, want := range []string{"harbour show.mp4", "Ready", "0:06", "H.264 640×360 30 fps", "AAC stereo", "expires in"} {
		if !strings.Contains(row, want) {
			t.Errorf("media row lacks %q: %q", want, row)
		}
	}
	if eval[bool](b, `!document.getElementById("media-empty").hidden`) {
		t.Error("the empty state still shows")
	}
	if eval[string](b, `sessionStorage.getItem("captionqa.mediaUploads") || ""`) != "" {
		t.Error("a completed upload is still remembered as pending")
	}
	// The render form picked the new media.
	key := eval[string](b, `document.querySelector("#media-body tr").dataset.objectKey`)
	if got := eval[string](b, `document.getElementById("render-media").value`); got == "" || got != key {
		t.Errorf("render media = %q, want %q", got, key)
	}
	b.shots("51-media-uploaded")

	// The form: mux shows container and codec; mp4 means mov_text, mkv offers three.
	b.run("mux", click("#render-mode-mux_soft"))
	if !eval[bool](b, `document.getElementById("render-delivery-field").hidden && !document.getElementById("render-mux-fields").hidden && !document.getElementById("render-media-field").hidden`) {
		t.Error("mux: delivery should be hidden, container/codec and media shown")
	}
	if got := eval[string](b, `[...document.getElementById("render-codec").options].map(o => o.value).join()`); got != "mov_text" {
		t.Errorf("mp4 codecs = %q", got)
	}
	eval[bool](b, `(() => { const s = document.getElementById("render-container"); s.value = "mkv"; s.dispatchEvent(new Event("change")); return true; })()`)
	if got := eval[string](b, `[...document.getElementById("render-codec").options].map(o => o.value).join()`); got != "srt,webvtt,ass" {
		t.Errorf("mkv codecs = %q", got)
	}
	eval[bool](b, `(() => { const s = document.getElementById("render-container"); s.value = "mp4"; s.dispatchEvent(new Event("change")); return true; })()`)
	// The 11 platform presets and the 5 of the delivery specs studios are held to.
	if n := eval[int](b, `document.querySelectorAll("#render-preset option").length`); n != 16 {
		t.Errorf("presets = %d, want 16", n)
	}

	// A mux_soft render: progress to succeeded, then Play.
	b.run("start mux", click("#render-start"))
	b.waitLong("mux row", `!!document.querySelector('`+jobRow("mux_soft")+`')`, 10*time.Second, jobsState+` + " | " + document.getElementById("render-card").innerText`)
	b.waitLong("mux succeeded", `(document.querySelector('`+jobRow("mux_soft")+`')||{dataset:{}}).dataset.status === "succeeded" || ["failed","canceled"].includes((document.querySelector('`+jobRow("mux_soft")+`')||{dataset:{}}).dataset.status)`, 90*time.Second, jobsState)
	if st := eval[string](b, `document.querySelector('`+jobRow("mux_soft")+`').dataset.status`); st != "succeeded" {
		t.Fatalf("mux job %s: %s", st, eval[string](b, jobsState))
	}
	if got := eval[string](b, `document.querySelector('`+jobRow("mux_soft")+` .job-progress').dataset.progress`); got != "100" {
		t.Errorf("progress of a succeeded job = %q", got)
	}
	if got := b.textN(jobRow("mux_soft") + " .job-status"); !strings.Contains(got, "Succeeded") {
		t.Errorf("status = %q", got)
	}
	b.run("play", click(jobRow("mux_soft")+" .job-play"), chromedp.WaitVisible(chromedp.CSS("#job-video")))
	b.waitLong("video metadata", `(() => { const v = document.getElementById("job-video"); return v && v.readyState >= 1 && v.duration > 0; })()`, 20*time.Second,
		`(() => { const v = document.getElementById("job-video"); return v ? "readyState " + v.readyState + " error " + (v.error && v.error.message) + " src " + v.src : "no video"; })()`)
	if d := eval[float64](b, `document.getElementById("job-video").duration`); d < 5 || d > 7 {
		t.Errorf("video duration = %v, want about 6", d)
	}
	if !strings.Contains(eval[string](b, `document.getElementById("job-video").src`), "/api/artifacts/") {
		t.Error("the player's source is not the signed artifact link")
	}
	if id := b.activeID(); id != "job-preview-h" {
		t.Errorf("focus after Play = %q", id)
	}
	b.shots("52-media-play")

	// Download the muxed file through its signed link: an MP4 with a subtitle track's timed text.
	dl := t.TempDir()
	b.allowDownloads(dl)
	name := eval[string](b, `document.querySelector('`+jobRow("mux_soft")+` .job-download').dataset.filename`)
	b.run("download", click(jobRow("mux_soft")+" .job-download"))
	if p, err := waitFile(dl, name, 15*time.Second); err != nil {
		t.Error(err)
	} else if got, _ := os.ReadFile(p); len(got) < 12 || string(got[4:8]) != "ftyp" {
		t.Errorf("%s is not an MP4 (%d bytes)", name, len(got))
	}
	b.run("close player", click("#job-preview-close"))
	if id := b.activeID(); !strings.Contains(id, "job-play") {
		t.Errorf("focus after closing the player = %q", id)
	}

	// An inline sidecar: its text in the page, with Copy.
	b.run("sidecar", click("#render-mode-sidecar"))
	if !eval[bool](b, `!document.getElementById("render-delivery-field").hidden && document.getElementById("render-media-field").hidden`) {
		t.Error("sidecar: delivery should show and media hide")
	}
	eval[bool](b, `(() => { const s = document.getElementById("render-delivery"); s.value = "inline"; s.dispatchEvent(new Event("change")); return true; })()`)
	// From the keyboard: Enter on Start render; the focus stays there.
	b.focusPress("#render-start", kb.Enter)
	b.waitLong("sidecar row", `!!document.querySelector('`+jobRow("sidecar")+`')`, 10*time.Second, jobsState)
	if id := b.activeID(); id != "render-start" {
		t.Errorf("focus after starting a render = %q", id)
	}
	b.waitLong("sidecar done", `["succeeded","failed","canceled"].includes((document.querySelector('`+jobRow("sidecar")+`')||{dataset:{}}).dataset.status)`, 60*time.Second, jobsState)
	if st := eval[string](b, `document.querySelector('`+jobRow("sidecar")+`').dataset.status`); st != "succeeded" {
		t.Fatalf("sidecar job %s: %s", st, eval[string](b, jobsState))
	}
	b.run("show output", click(jobRow("sidecar")+" .job-show"), chromedp.WaitVisible(chromedp.CSS("#job-output")))
	if got := b.textN("#job-output"); !strings.Contains(got, "Welcome back to the harbour show.") {
		t.Errorf("inline output = %q", got)
	}
	b.run("copy", click("#job-output-copy"))
	b.waitJS("copied", `document.getElementById("job-output-status").textContent !== ""`)

	// A burn-in, canceled (or finished first: the button is what is tested).
	b.run("burn-in", click("#render-mode-burn_in"))
	if !eval[bool](b, `document.getElementById("render-delivery-field").hidden && document.getElementById("render-mux-fields").hidden`) {
		t.Error("burn-in: delivery and mux fields should hide")
	}
	b.run("start burn-in", click("#render-start"))
	b.waitLong("burn-in row", `!!document.querySelector('`+jobRow("burn_in")+`')`, 10*time.Second, jobsState)
	st := eval[string](b, `document.querySelector('`+jobRow("burn_in")+`').dataset.status`)
	if st == "queued" || st == "running" {
		// Clicked in the page: the button goes the moment the job ends, which may be now.
		name := eval[string](b, `(() => { const c = document.querySelector('`+jobRow("burn_in")+` .job-cancel'); if (!c) return ""; c.click(); return c.getAttribute("aria-label"); })()`)
		if name == "" {
			t.Log("the burn-in ended before Cancel was clicked")
		} else if !strings.HasPrefix(name, "Cancel the burn-in render") {
			t.Errorf("cancel button's name = %q", name)
		}
	}
	b.waitLong("burn-in ended", `["canceled","succeeded"].includes(document.querySelector('`+jobRow("burn_in")+`').dataset.status)`, 30*time.Second, jobsState)
	st = eval[string](b, `document.querySelector('`+jobRow("burn_in")+`').dataset.status`)
	t.Logf("burn-in ended %s", st)
	if st == "canceled" && !strings.Contains(b.textN(jobRow("burn_in")+" .job-status"), "Canceled") {
		t.Errorf("status cell = %q", b.textN(jobRow("burn_in")+" .job-status"))
	}
	if n := eval[int](b, `document.querySelectorAll("#jobs-body .job-cancel").length`); n != 0 {
		t.Errorf("%d Cancel buttons left with no job active", n)
	}
	// Polling stops once nothing is active: no poll is due or under way.
	b.waitJS("polling stopped", `document.getElementById("jobs-area").dataset.polling === "off"`)
	b.shots("53-media-jobs")

	// At 800 px the page does not scroll sideways.
	b.viewport(800, 900)
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 800 {
		t.Errorf("the page is %d px wide at 800", w)
	}
	b.viewport(1280, 800)

	// The jobs are the API's: three, newest first.
	var jobs struct { // httpapi's jobList is unexported: its one member
		Jobs []httpapi.JobView `json:"jobs"`
	}
	if s := e.apiJSON(t, "GET", "/api/v1/jobs?projectId="+pid, "", &jobs); s != 200 || len(jobs.Jobs) != 3 || jobs.Jobs[0].Mode != "burn_in" {
		t.Errorf("GET /jobs: %d %+v", s, jobs.Jobs)
	}
	// Reloading shows the same lists.
	b.run("reload", chromedp.Reload())
	b.waitLong("lists again", `document.querySelectorAll("#jobs-body tr").length === 3 && document.querySelectorAll("#media-body tr").length === 1`, 15*time.Second, jobsState)
}

// TestMediaResume: an upload begun elsewhere in this tab (two parts of
// five on the server, the session remembered in sessionStorage) resumes
// when the same file is chosen after a reload: only parts 3 to 5 go out,
// three at a time, then it completes.
func TestMediaResume(t *testing.T) {
	t.Parallel()
	const size = 70 << 20 // 16 MiB parts: five
	clip := paddedClip(t, size)
	e := newEnv(t, false)
	pid := mediaProject(t, e, "Harbour long")

	var s httpapi.UploadView
	body := fmt.Sprintf(`{"projectId":%q,"filename":"harbour long.mp4","contentType":"video/mp4","bytes":%d}`, pid, size)
	if st := e.apiJSON(t, "POST", "/api/v1/media/upload", body, &s); st != 200 {
		t.Fatalf("POST /media/upload: %d", st)
	}
	if !s.Multipart || len(s.Parts) != 5 {
		t.Fatalf("session: multipart %v, %d parts (want 5)", s.Multipart, len(s.Parts))
	}
	data, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Parts[:2] {
		off := int64(p.PartNumber-1) * s.PartSize
		u := p.URL
		if strings.HasPrefix(u, "/") {
			u = e.ts.URL + u
		}
		req, _ := http.NewRequest("PUT", u, bytes.NewReader(data[off:off+p.Bytes]))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("PUT part %d: %d %s", p.PartNumber, res.StatusCode, msg)
		}
	}

	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/media/" + pid)
	b.run("page", chromedp.WaitVisible(chromedp.CSS("#upload-card")))
	// As the page itself keeps it when an upload is interrupted.
	pending, _ := json.Marshal([]map[string]any{{
		"uploadId": s.UploadID, "projectId": pid, "objectKey": s.ObjectKey, "filename": "harbour long.mp4",
		"bytes": size, "lastModified": 0, "multipart": true, "savedAt": time.Now().UnixMilli(),
	}})
	eval[bool](b, fmt.Sprintf(`(sessionStorage.setItem("captionqa.mediaUploads", %q), true)`, pending))
	b.run("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#upload-pending")))
	eval[bool](b, `(performance.setResourceTimingBufferSize(100000), true)`)
	if got := b.textN("#upload-pending"); !strings.Contains(got, "harbour long.mp4") || !strings.Contains(got, "did not finish") {
		t.Errorf("pending notice = %q", got)
	}
	b.shots("54-media-resume-offered")

	// A slow line (3 MB/s up), so the upload can be watched, paused and cut.
	b.network(network.Conditions{UploadThroughput: 3e6, DownloadThroughput: -1})
	b.run("choose the same file", chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{clip}))
	const phase = `(document.getElementById("upload-panel")||{dataset:{}}).dataset.phase`
	b.waitLong("uploading with a rate", phase+` === "uploading" && document.getElementById("upload-stats").textContent.includes("MB/s")`, 20*time.Second, uploadState)
	if got := b.textN("#upload-state"); !strings.Contains(got, "Resuming") {
		t.Errorf("state while resuming = %q", got)
	}
	if got := b.textN("#upload-stats"); !strings.Contains(got, "of 73.4 MB") || !strings.Contains(got, "of 5 parts") {
		t.Errorf("stats = %q", got)
	}
	b.shots("55-media-uploading")

	// Pause keeps what arrived; Resume goes on.
	b.run("pause", click("#upload-pause"))
	b.waitJS("paused", phase+` === "paused"`)
	if id := b.activeID(); id != "upload-resume" {
		t.Errorf("focus after Pause = %q", id)
	}
	b.run("resume", click("#upload-resume"))
	b.waitJS("uploading again", phase+` === "uploading"`)

	// The line drops: the parts in flight are retried after a pause, and go through once it is back.
	b.network(network.Conditions{Offline: true, UploadThroughput: -1, DownloadThroughput: -1})
	b.waitLong("retrying", `document.getElementById("upload-state").textContent.includes("trying again")`, 20*time.Second, uploadState)
	b.network(network.Conditions{UploadThroughput: -1, DownloadThroughput: -1})
	b.waitLong("resumed upload done", `["done","stopped"].includes(`+phase+`)`, 60*time.Second, uploadState)
	if ph := eval[string](b, phase); ph != "done" {
		t.Fatalf("upload phase %q: %s", ph, eval[string](b, uploadState))
	}
	b.network(network.Conditions{UploadThroughput: -1, DownloadThroughput: -1})
	// Parts 1 and 2 were on the server: the page sent only the others (some more than once).
	sent := eval[[]string](b, `performance.getEntriesByType("resource").filter(r => r.name.includes("/api/uploads/")).map(r => new URL(r.name).pathname.split("/").pop())`)
	slices.Sort(sent)
	t.Logf("parts PUT by the page: %v", sent)
	if got := strings.Join(slices.Compact(slices.Clone(sent)), ","); got != "3,4,5" {
		t.Errorf("parts sent by the page = %v, want 3, 4 and 5 only", sent)
	}
	if got := b.textN("#upload-stats"); !strings.Contains(got, "5 of 5 parts") {
		t.Errorf("stats = %q", got)
	}
	b.waitLong("media row", `document.querySelectorAll("#media-body tr[data-status=completed]").length === 1`, 10*time.Second, `document.getElementById("media-card").innerText`)
	if got := b.textN("#media-body tr"); !strings.Contains(got, "harbour long.mp4") || !strings.Contains(got, "73.4 MB") || !strings.Contains(got, "H.264 640×360") {
		t.Errorf("media row = %q", got)
	}
	if eval[bool](b, `!document.getElementById("upload-pending").hidden`) {
		t.Error("the resume notice stays after the upload completed")
	}
	b.shots("55-media-resumed")
}

// TestMediaNeedsPro: a Free+ account has neither video add-on; the page says so.
func TestMediaNeedsPro(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	tier := account.TierFreePlus
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), ownerEmail, account.AccountUpdate{Tier: &tier}); err != nil {
		t.Fatal(err)
	}
	mediaProject(t, e, "Harbour show")
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/media")
	b.run("gate", chromedp.WaitVisible(chromedp.CSS("#media-pro")))
	if got := b.textN("#media-pro"); !strings.Contains(got, "Pro") || !strings.Contains(got, "caption_render") || strings.Contains(got, "403") {
		t.Errorf("Pro explanation = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#media-file, #render-form, #media-error:not([hidden])").length`); n != 0 {
		t.Error("the page offers uploads, renders or an error without Pro")
	}
	b.shots("56-media-needs-pro")
}

// TestMediaVideoOff: a server started with --video off answers the media
// and job routes 503; the page says video is off instead of an error.
func TestMediaVideoOff(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.VideoOff = true
	srv := server.New(cfg)
	ctx := context.Background()
	if err := srv.Open(ctx); err != nil {
		t.Fatalf("open server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if _, err := srv.Accounts().SetPassword(ctx, ownerEmail, ownerPassword); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	mediaProject(t, &env{srv: srv, ts: ts, secret: srv.Owner().Secret}, "Harbour show")
	b := newBrowser(t, ts.URL)
	b.signIn()
	b.open("/#/media")
	b.run("off", chromedp.WaitVisible(chromedp.CSS("#media-off")))
	if got := b.textN("#media-off-h"); got != "Video is off on this server" {
		t.Errorf("heading = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#media-file, #render-form, #media-error:not([hidden]), #jobs-error:not([hidden])").length`); n != 0 {
		t.Error("the page offers uploads or renders, or shows an error, with video off")
	}
	if !eval[bool](b, `document.getElementById("media-project-card").hidden`) {
		t.Error("the project chooser shows with video off")
	}
	b.shots("57-media-video-off")
}

// extractClip is a 6 s MKV with two text subtitle tracks: English SubRip
// (the default) and French WebVTT, three cues each.
func extractClip(t *testing.T) string {
	t.Helper()
	cue := func(from, to int, text string) fftest.Cue {
		return fftest.Cue{Start: time.Duration(from) * time.Millisecond, End: time.Duration(to) * time.Millisecond, Text: text}
	}
	src := fftest.Clip(t, fftest.ClipOptions{Container: "mkv", Seconds: 6, Tracks: []fftest.Track{
		{Codec: "srt", Language: "eng", Default: true, Cues: []fftest.Cue{
			cue(500, 2000, "Welcome back to the harbour show."),
			cue(2500, 4000, "Tonight: the tide tables."),
			cue(4500, 5800, "The ferry leaves at six."),
		}},
		{Codec: "webvtt", Language: "fra", Cues: frenchCues},
	}})
	// The fixture is shared: the upload gets a copy with a name of its own.
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "harbour two tracks.mkv")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

var frenchCues = []fftest.Cue{
	{Start: 500 * time.Millisecond, End: 2000 * time.Millisecond, Text: "Bienvenue à l'émission du port."},
	{Start: 2500 * time.Millisecond, End: 4000 * time.Millisecond, Text: "Ce soir : les tables des marées."},
	{Start: 4500 * time.Millisecond, End: 5800 * time.Millisecond, Text: "Le ferry part à six heures."},
}

// TestMediaExtract: a video without subtitle tracks offers no track to
// extract; an MKV with two (eng SubRip, fra WebVTT) lists both, and
// extracting the French one from the keyboard runs a job that becomes
// the project's revision 2 (the header follows), with its IR and SRT to
// download and a link to the project; the API's timeline is the French
// cues.
func TestMediaExtract(t *testing.T) {
	t.Parallel()
	plain := testClip(t, "harbour plain.mp4")
	mkv := extractClip(t)
	e := newMediaEnv(t)
	pid := mediaProject(t, e, "Harbour show")
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/media/" + pid)
	b.run("page", chromedp.WaitVisible(chromedp.CSS("#extract-card")))
	b.waitLong("empty lists", `!document.getElementById("media-empty").hidden && !document.getElementById("jobs-empty").hidden`, 10*time.Second, jobsState)
	if got := b.textN("#extract-h"); got != "Extract captions" {
		t.Errorf("heading = %q", got)
	}
	// The card comes right after the render card.
	if got := eval[string](b, `document.getElementById("extract-card").previousElementSibling.id`); got != "render-card" {
		t.Errorf("the extract card follows %q", got)
	}
	if got := b.textN("#extract-intro"); !strings.Contains(got, "next timeline revision (2)") {
		t.Errorf("intro = %q", got)
	}
	if got := b.textN("#media-project-revision"); got != "Timeline revision 1, 3 cues." {
		t.Errorf("project header = %q", got)
	}
	// Nothing uploaded: no video, no source to choose.
	if !eval[bool](b, `document.getElementById("extract-media").disabled && document.getElementById("extract-source-soft_track").disabled`) {
		t.Error("the extract form offers a video or a track with no media")
	}
	// Every control has its name.
	for _, id := range []string{"extract-media", "extract-source-soft_track", "extract-source-broadcast_cc", "extract-source-ocr_burned", "extract-track"} {
		if got := eval[string](b, `[...document.getElementById("`+id+`").labels].map(l => l.textContent).join()`); got == "" {
			t.Errorf("#%s has no label", id)
		}
	}
	if got := eval[string](b, `document.querySelector("#extract-form legend").textContent`); got != "Source" {
		t.Errorf("legend = %q", got)
	}

	upload := func(file string, n int) {
		t.Helper()
		b.run("choose "+filepath.Base(file), chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{file}))
		b.waitLong("upload done", `["done","stopped"].includes((document.getElementById("upload-panel")||{dataset:{}}).dataset.phase) && document.getElementById("upload-name").textContent === "`+filepath.Base(file)+`"`, 30*time.Second, uploadState)
		if ph := eval[string](b, `document.getElementById("upload-panel").dataset.phase`); ph != "done" {
			t.Fatalf("upload phase %q: %s", ph, eval[string](b, uploadState))
		}
		b.waitLong("media rows", fmt.Sprintf(`document.querySelectorAll("#media-body tr[data-status=completed]").length === %d`, n), 10*time.Second, `document.getElementById("media-card").innerText`)
	}

	// A video without subtitle tracks: the track option is disabled, and says why.
	upload(plain, 1)
	if !eval[bool](b, `document.getElementById("extract-source-soft_track").disabled && document.getElementById("extract-track").disabled`) {
		t.Error("the subtitle track option is enabled for a video without subtitle tracks")
	}
	if got := b.textN("#extract-source-soft_track-hint"); !strings.Contains(got, "no subtitle tracks") {
		t.Errorf("track option's reason = %q", got)
	}
	if got := eval[string](b, `document.getElementById("extract-source-soft_track").getAttribute("aria-describedby")`); got != "extract-source-soft_track-hint" {
		t.Errorf("the reason is not the option's description: %q", got)
	}
	if eval[bool](b, `document.getElementById("extract-source-broadcast_cc").disabled || document.getElementById("extract-source-ocr_burned").disabled`) {
		t.Error("closed captions and OCR should stay available for a video")
	}
	if got := b.textN("#extract-source-broadcast_cc-hint"); !strings.Contains(got, "whole video is decoded") {
		t.Errorf("broadcast hint = %q", got)
	}
	if got := b.textN("#extract-source-ocr_burned-hint"); !strings.Contains(got, "white or yellow") || !strings.Contains(got, "bottom of the picture") || !strings.Contains(got, "English") {
		t.Errorf("OCR hint = %q", got)
	}
	// Nothing suggests the captions are anywhere: no source is guessed.
	if n := eval[int](b, `document.querySelectorAll("#extract-form input[name=extract-source]:checked").length`); n != 0 {
		t.Errorf("%d sources chosen for a video without captions", n)
	}
	b.shots("58-media-extract-no-tracks")

	// The API refuses a subtitle track of it, as documented.
	plainKey := eval[string](b, `document.querySelector("#media-body tr[data-status=completed]").dataset.objectKey`)
	var refusal apperr.Envelope
	st, raw := e.api(t, "POST", "/api/v1/jobs/extract", "application/json",
		strings.NewReader(fmt.Sprintf(`{"projectId":%q,"extractMode":"soft_track","mediaObjectKey":%q}`, pid, plainKey)), "")
	_ = json.Unmarshal(raw, &refusal)
	if st != 422 || refusal.Error.Code != "processing_failed" || refusal.Error.Details["reason"] != "no_subtitle_track" {
		t.Errorf("soft_track of a video without tracks: %d %s", st, raw)
	}

	// The MKV: chosen as the new video, its two tracks listed, the default one first.
	upload(mkv, 2)
	key := eval[string](b, `[...document.querySelectorAll("#media-body tr[data-status=completed]")].find(r => r.innerText.includes("two tracks")).dataset.objectKey`)
	if got := eval[string](b, `document.getElementById("extract-media").value`); got != key {
		t.Errorf("extract media = %q, want the MKV %q", got, key)
	}
	if got := eval[string](b, `document.getElementById("extract-media").selectedOptions[0].textContent`); !strings.Contains(got, "harbour two tracks.mkv") || !strings.Contains(got, "2 subtitle tracks") {
		t.Errorf("media option = %q", got)
	}
	if !eval[bool](b, `document.getElementById("extract-source-soft_track").checked && !document.getElementById("extract-track-field").hidden`) {
		t.Error("the subtitle track source is not chosen for a video with text tracks")
	}
	tracks := eval[[]string](b, `[...document.getElementById("extract-track").options].map(o => o.textContent)`)
	if want := []string{"Track 1 · English · SubRip (default)", "Track 2 · French · WebVTT"}; !slices.Equal(tracks, want) {
		t.Errorf("tracks = %q, want %q", tracks, want)
	}
	if got := eval[string](b, `document.getElementById("extract-track").value`); got != "0" {
		t.Errorf("track = %q, want the default (0)", got)
	}
	// Switching back to the plain video and again to the MKV keeps the form right.
	eval[bool](b, fmt.Sprintf(`(() => { const s = document.getElementById("extract-media"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, plainKey))
	if !eval[bool](b, `document.getElementById("extract-source-soft_track").disabled && !document.getElementById("extract-source-soft_track").checked && document.getElementById("extract-track-field").hidden`) {
		t.Error("the plain video still offers a subtitle track")
	}
	eval[bool](b, fmt.Sprintf(`(() => { const s = document.getElementById("extract-media"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, key))

	// An index past the last track is refused with the number of tracks.
	st, raw = e.api(t, "POST", "/api/v1/jobs/extract", "application/json",
		strings.NewReader(fmt.Sprintf(`{"projectId":%q,"extractMode":"soft_track","trackIndex":5,"mediaObjectKey":%q}`, pid, key)), "")
	refusal.Error.Details = nil
	_ = json.Unmarshal(raw, &refusal)
	if st != 400 || refusal.Error.Details["field"] != "trackIndex" || refusal.Error.Details["reason"] != "out_of_range" || refusal.Error.Details["subtitleTracks"] != float64(2) {
		t.Errorf("trackIndex 5 of 2 tracks: %d %s", st, raw)
	}

	// From the keyboard: the French track, then Enter on Start extract.
	b.run("focus track", chromedp.Focus(chromedp.CSS("#extract-track")))
	eval[bool](b, `(() => { const s = document.getElementById("extract-track"); s.value = "1"; s.dispatchEvent(new Event("change")); return true; })()`)
	if got := b.textN("#extract-track-hint"); got != "The timeline's language becomes French." {
		t.Errorf("track hint = %q", got)
	}
	b.shots("59-media-extract-form")
	b.focusPress("#extract-start", kb.Enter)
	row := jobRow("soft_track")
	b.waitLong("extract row", `!!document.querySelector('`+row+`')`, 10*time.Second, jobsState+` + " | " + document.getElementById("extract-card").innerText`)
	if id := b.activeID(); id != "extract-start" {
		t.Errorf("focus after starting an extract = %q", id)
	}
	if got := b.textN("#extract-status"); !strings.Contains(got, "Extract queued") {
		t.Errorf("extract status = %q", got)
	}
	b.waitLong("extract ended", `["succeeded","failed","canceled"].includes((document.querySelector('`+row+`')||{dataset:{}}).dataset.status)`, 60*time.Second, jobsState)
	if st := eval[string](b, `document.querySelector('`+row+`').dataset.status`); st != "succeeded" {
		t.Fatalf("extract job %s: %s", st, eval[string](b, jobsState))
	}
	if got := b.textN(row + " .job-name"); got != "Extract · subtitle track 2" {
		t.Errorf("job title = %q", got)
	}
	if got := b.textN(row + " .job-sub"); !strings.Contains(got, "harbour two tracks.mkv") || !strings.Contains(got, "French") {
		t.Errorf("job sub-line = %q", got)
	}
	if got := b.textN(row + " .job-status"); !strings.Contains(got, "Succeeded") || !strings.Contains(got, "Became revision 2") {
		t.Errorf("job status = %q", got)
	}
	if got := eval[string](b, `(l => l.getAttribute("href") + " " + l.textContent)(document.querySelector('`+row+` .job-open'))`); got != "#/projects/"+pid+" Open the project" {
		t.Errorf("open link = %q", got)
	}
	files := eval[[]string](b, `[...document.querySelectorAll('`+row+` .job-download')].map(d => d.dataset.filename + " | " + d.textContent + " | " + d.getAttribute("aria-label"))`)
	if len(files) != 2 || !strings.HasSuffix(strings.Split(files[0], " | ")[0], ".srt") {
		t.Errorf("downloads = %q, want the SRT, then the IR", files)
	}
	var srtName string
	for _, f := range files {
		name, _, _ := strings.Cut(f, " | ")
		switch {
		case strings.HasSuffix(name, ".srt"):
			srtName = name
			if !strings.Contains(f, "| SRT | Download SRT: "+name) {
				t.Errorf("SRT button = %q", f)
			}
		case strings.HasSuffix(name, ".json"):
			if !strings.Contains(f, "| JSON | Download JSON (the timeline as CaptionQA IR): "+name) {
				t.Errorf("IR button = %q", f)
			}
		default:
			t.Errorf("unexpected artifact %q", f)
		}
	}
	// The page's header and the form follow the new revision; the success was announced.
	b.waitLong("header", `document.getElementById("media-project-revision").textContent.startsWith("Timeline revision 2,")`, 10*time.Second, `document.getElementById("media-project-info").innerText`)
	if got := b.textN("#media-project-revision"); got != "Timeline revision 2, 3 cues." {
		t.Errorf("project header = %q", got)
	}
	if got := b.textN("#extract-intro"); !strings.Contains(got, "next timeline revision (3)") {
		t.Errorf("intro after the extract = %q", got)
	}
	if got := b.textN("#render-card"); !strings.Contains(got, "Renders timeline revision 2") {
		t.Errorf("render card after the extract = %q", got)
	}
	if got := eval[string](b, `document.getElementById("live").textContent`); !strings.Contains(got, "became timeline revision 2") {
		t.Errorf("announcement = %q", got)
	}
	b.shots("60-media-extract-done")

	// At 800 px the page does not scroll sideways.
	b.viewport(800, 900)
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 800 {
		t.Errorf("the page is %d px wide at 800", w)
	}
	b.viewport(1280, 800)

	// The project's timeline is the French track now.
	// The project and its IR: httpapi's projectDetail is unexported.
	var proj struct {
		httpapi.ProjectView
		IR caption.Track `json:"ir"`
	}
	if st := e.apiJSON(t, "GET", "/api/v1/projects/"+pid, "", &proj); st != 200 {
		t.Fatalf("GET project: %d", st)
	}
	if proj.IRRevision != 2 || len(proj.IR.Cues) != len(frenchCues) {
		t.Fatalf("project: revision %d, %d cues: %+v", proj.IRRevision, len(proj.IR.Cues), proj.IR.Cues)
	}
	for i, c := range proj.IR.Cues {
		w := frenchCues[i]
		if c.Text != w.Text || absDiff(int(c.StartMs), int(w.Start.Milliseconds())) > 40 || absDiff(int(c.EndMs), int(w.End.Milliseconds())) > 40 {
			t.Errorf("cue %d = %+v, want %q %v–%v", i, c, w.Text, w.Start, w.End)
		}
	}
	if !strings.HasPrefix(proj.IR.Language, "fr") {
		t.Errorf("timeline language = %q, want French", proj.IR.Language)
	}

	// The job as the API has it.
	var jobs struct { // httpapi's jobList is unexported: its one member
		Jobs []httpapi.JobView `json:"jobs"`
	}
	if st := e.apiJSON(t, "GET", "/api/v1/jobs?projectId="+pid, "", &jobs); st != 200 || len(jobs.Jobs) != 1 {
		t.Fatalf("GET /jobs: %d %+v", st, jobs.Jobs)
	}
	if j := jobs.Jobs[0]; j.Kind != "extract" || j.Mode != "soft_track" || j.Status != "succeeded" || j.Preset != "" || j.IRRevision != 1 ||
		j.TrackIndex == nil || *j.TrackIndex != 1 || j.ResultRevision == nil || *j.ResultRevision != 2 || j.MediaObjectKey != key || len(j.Artifacts) != 2 {
		t.Errorf("job = %+v", j)
	} else {
		t.Logf("artifacts: %+v", j.Artifacts)
	}

	// The SRT downloads through its signed link, with the French text.
	dl := t.TempDir()
	b.allowDownloads(dl)
	b.run("download srt", click(row+` .job-download[data-filename$=".srt"]`))
	if p, err := waitFile(dl, srtName, 15*time.Second); err != nil {
		t.Error(err)
	} else if got, _ := os.ReadFile(p); !bytes.Contains(got, []byte("Le ferry part à six heures.")) {
		t.Errorf("%s = %q", srtName, got)
	}

	// Reloading keeps the row's result; Open project goes to the project.
	b.run("reload", chromedp.Reload())
	b.waitLong("row again", `!!document.querySelector('`+row+` .job-open')`, 15*time.Second, jobsState)
	if got := b.textN(row + " .job-status"); !strings.Contains(got, "Became revision 2") {
		t.Errorf("job status after reload = %q", got)
	}
	b.run("open project", click(row+" .job-open"))
	b.waitJS("projects page", fmt.Sprintf(`location.hash === "#/projects/%s"`, pid))
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}
