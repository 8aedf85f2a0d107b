package server_test

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// jobWait bounds a render job of the test clips, queued behind the
// others on two loaded cores: generous, it only catches a hang.
const jobWait = 3 * time.Minute

// TestVideoRenderJobs runs every render mode with the real ffmpeg on a
// 10 s 640x360 clip and checks what each made: a sidecar (inline, and as
// an artifact) equal to an export of the same preset; soft subtitles in
// MP4 (mov_text) and MKV (srt, webvtt) with the video and audio copied,
// the track tagged and its cues those of the preset's delivery; captions
// burned into the picture where the cues are and nowhere else. Each job
// is polled to its end: progress never goes back and ends at 1, its
// times are set, and every answer fits the served contract.
func TestVideoRenderJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("renders video in every mode with ffmpeg (make test runs it)")
	}
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Harbour show", mediaIR)
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 10})
	m := e.uploadFile(pid, clip)

	// The deliveries, as an export of the project makes them.
	var x httpapi.ExportCreated
	e.call("POST", "/api/v1/projects/"+pid+"/exports", map[string]any{"presets": []string{"youtube", "html5"}}, 201, &x)
	delivery := map[string][]byte{}
	for _, a := range x.Artifacts {
		delivery[a.Preset] = e.download(a.ArtifactID)
	}
	if len(delivery["youtube"]) == 0 || len(delivery["html5"]) == 0 {
		t.Fatalf("export artifacts %+v", x.Artifacts)
	}
	used := e.usedToday(e.key)

	type run struct {
		name  string
		req   map[string]any
		check func(t *testing.T, e *videoEnv, j *httpapi.JobView)
	}
	media := func(mode string, more map[string]any) map[string]any {
		r := map[string]any{"projectId": pid, "mode": mode, "preset": "youtube", "mediaObjectKey": m.ObjectKey}
		for k, v := range more {
			r[k] = v
		}
		return r
	}
	runs := []run{
		{"sidecar inline", map[string]any{"projectId": pid, "mode": "sidecar", "preset": "youtube", "outputDelivery": "inline"},
			func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
				if j.Output == nil || *j.Output != string(delivery["youtube"]) || len(j.Artifacts) != 0 ||
					!strings.HasPrefix(j.OutputContentType, "application/x-subrip") {
					t.Errorf("inline sidecar: output %q (%s), %d artifacts; want the export's youtube file %q",
						deref(j.Output), j.OutputContentType, len(j.Artifacts), delivery["youtube"])
				}
			}},
		{"sidecar url", map[string]any{"projectId": pid, "mode": "sidecar", "preset": "html5",
			"mediaObjectKey": "media/ignored"},
			func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
				if j.Output != nil || len(j.Artifacts) != 1 || !strings.HasSuffix(j.Artifacts[0].Filename, "-html5.vtt") ||
					!strings.HasPrefix(j.Artifacts[0].ContentType, "text/vtt") {
					t.Fatalf("url sidecar: output %v, artifacts %+v", j.Output, j.Artifacts)
				}
				if got := e.download(j.Artifacts[0].ArtifactID); string(got) != string(delivery["html5"]) {
					t.Errorf("url sidecar %q; want the export's html5 file %q", got, delivery["html5"])
				}
			}},
		{"mux_soft mp4", media("mux_soft", nil), func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
			if j.Container != "mp4" || j.SubtitleCodec != "mov_text" || j.Language != "eng" {
				t.Errorf("defaults: container %q, codec %q, language %q; want mp4, mov_text, eng (the source's and the timeline's)",
					j.Container, j.SubtitleCodec, j.Language)
			}
			out := e.artifactFile(t, j, "-youtube-subtitled.mp4", "video/mp4")
			checkMuxed(t, clip, out, "mov_text", "eng", delivery["youtube"], "srt")
		}},
		{"mux_soft mkv srt", media("mux_soft", map[string]any{"container": "mkv", "subtitleCodec": "srt"}), func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
			out := e.artifactFile(t, j, "-youtube-subtitled.mkv", "video/x-matroska")
			checkMuxed(t, clip, out, "subrip", "eng", delivery["youtube"], "srt")
		}},
		{"mux_soft mkv webvtt", media("mux_soft", map[string]any{"preset": "html5", "container": "mkv",
			"subtitleCodec": "webvtt", "language": "fra"}), func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
			out := e.artifactFile(t, j, "-html5-subtitled.mkv", "video/x-matroska")
			checkMuxed(t, clip, out, "webvtt", "fra", delivery["html5"], "vtt")
		}},
		{"burn_in", media("burn_in", nil), func(t *testing.T, e *videoEnv, j *httpapi.JobView) {
			out := e.artifactFile(t, j, "-youtube-burned-in.mp4", "video/mp4")
			streams := fftest.Streams(t, out)
			if len(streams) != 2 || streams[0].Type != "video" || streams[0].Codec != "h264" || streams[1].Codec != "aac" {
				t.Errorf("burned-in streams %+v; want h264 and aac only", streams)
			}
			if a, b := streamMD5(t, clip, "a:0"), streamMD5(t, out, "a:0"); a != b {
				t.Errorf("audio not copied: md5 %s, source %s", b, a)
			}
			if d := duration(t, out); math.Abs(d-10) > 0.2 {
				t.Errorf("burned-in duration %v; want 10 s", d)
			}
			// In a cue: white text in the bottom band, where the source
			// has none.
			for _, at := range []time.Duration{2500 * time.Millisecond, 6750 * time.Millisecond} {
				if ink, _ := compareBottom(t, clip, out, at); ink < 150 {
					t.Errorf("frame at %v (inside a cue): %d pixels of white ink in the bottom band; want many", at, ink)
				}
			}
			// Outside every cue: the picture is the source's, but for the
			// re-encoding.
			for _, at := range []time.Duration{500 * time.Millisecond, 5 * time.Second} {
				if ink, diff := compareBottom(t, clip, out, at); ink > 20 || diff > 8 {
					t.Errorf("frame at %v (no cue): %d pixels of ink, mean difference %.1f; want the source's picture", at, ink, diff)
				}
			}
		}},
	}
	created := map[string]jobCreated{}
	for _, r := range runs {
		created[r.name] = e.render(r.req)
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		c := created[r.name]
		wg.Go(func() {
			t.Run(r.name, func(t *testing.T) {
				e := e.with(t)
				start := time.Now()
				j, seen := e.waitJob(c.JobID, jobWait, final)
				t.Logf("%s: %s in %v (progress seen %v)", r.name, j.Status, time.Since(start).Round(100*time.Millisecond), compact(seen))
				if j.Status != "succeeded" || j.Progress != 1 || j.Error != nil || j.StartedAt == nil || j.FinishedAt == nil ||
					j.StartedAt.Before(j.CreatedAt) || j.FinishedAt.Before(*j.StartedAt) || j.IRRevision != 1 ||
					j.Kind != "render" || j.Mode != r.req["mode"] || j.ProjectID != pid || j.EstimatedWaitSeconds != nil {
					t.Fatalf("job %+v; want it succeeded with progress 1, its times set", j)
				}
				wantDelivery := "url"
				if r.req["outputDelivery"] == "inline" {
					wantDelivery = "inline"
				}
				if j.OutputDelivery != wantDelivery {
					t.Errorf("outputDelivery %q; want %q", j.OutputDelivery, wantDelivery)
				}
				r.check(t, e, j)
			})
		})
	}
	wg.Wait()

	var list struct { // httpapi's jobList is unexported: its one member
		Jobs []httpapi.JobView `json:"jobs"`
	}
	e.call("GET", "/api/v1/jobs?projectId="+pid, nil, 200, &list)
	if len(list.Jobs) != len(runs) {
		t.Errorf("%d jobs listed; want %d", len(list.Jobs), len(runs))
	}
	for i := 1; i < len(list.Jobs); i++ {
		if list.Jobs[i].CreatedAt.After(list.Jobs[i-1].CreatedAt) {
			t.Errorf("jobs not newest first: %v then %v", list.Jobs[i-1].CreatedAt, list.Jobs[i].CreatedAt)
		}
	}
	if got := e.usedToday(e.key); got != used+len(runs) {
		t.Errorf("usedToday %d after %d succeeded jobs; want %d", got, len(runs), used+len(runs))
	}
	t.Run("refusals", func(t *testing.T) { checkRenderRefusals(t, e.with(t), pid, m) })
}

// checkRenderRefusals: a render job is refused, naming the field, before
// it takes a run of the daily pool, for a bad mode, delivery, container,
// codec, language, preset or project, media that is missing, unknown,
// another project's, still pending, or without the video a burn-in
// needs, and a project without a timeline.
func checkRenderRefusals(t *testing.T, e *videoEnv, pid string, m *httpapi.UploadView) {
	used := e.usedToday(e.key)
	pid2 := e.newProject("Other", mediaIR)
	empty := e.newProject("Empty", "")
	pending := e.createUpload(pid, "pending.mp4", 1000)
	audio := e.uploadFile(pid, audioClip(t))
	req := func(more map[string]any) map[string]any {
		r := map[string]any{"projectId": pid, "mode": "mux_soft", "preset": "youtube", "mediaObjectKey": m.ObjectKey}
		for k, v := range more {
			if v == nil {
				delete(r, k)
			} else {
				r[k] = v
			}
		}
		return r
	}
	for _, c := range []struct {
		what   string
		body   map[string]any
		status int
		code   string
		want   map[string]any
	}{
		{"mode draft", req(map[string]any{"mode": "draft"}), 400, "bad_request", map[string]any{"field": "mode"}},
		{"no mode", req(map[string]any{"mode": nil}), 400, "bad_request", map[string]any{"field": "mode"}},
		{"a video inline", req(map[string]any{"outputDelivery": "inline"}), 400, "bad_request",
			map[string]any{"field": "outputDelivery", "reason": "inline_only_for_sidecar"}},
		{"outputDelivery email", req(map[string]any{"outputDelivery": "email"}), 400, "bad_request", map[string]any{"field": "outputDelivery"}},
		{"container avi", req(map[string]any{"container": "avi"}), 400, "bad_request", map[string]any{"field": "container"}},
		{"a sidecar with a container", req(map[string]any{"mode": "sidecar", "container": "mkv"}), 400, "bad_request", map[string]any{"field": "container"}},
		{"a burn-in with a subtitle codec", req(map[string]any{"mode": "burn_in", "subtitleCodec": "srt"}), 400, "bad_request", map[string]any{"field": "subtitleCodec"}},
		{"srt in an MP4", req(map[string]any{"subtitleCodec": "srt"}), 400, "bad_request",
			map[string]any{"field": "subtitleCodec", "reason": "not_in_container"}},
		{"webvtt in an MP4", req(map[string]any{"container": "mp4", "subtitleCodec": "webvtt"}), 400, "bad_request", map[string]any{"field": "subtitleCodec"}},
		{"language en", req(map[string]any{"language": "en"}), 400, "bad_request", map[string]any{"field": "language"}},
		{"no preset", req(map[string]any{"preset": nil}), 400, "bad_request", map[string]any{"field": "preset"}},
		{"an unknown preset", req(map[string]any{"preset": "betamax"}), 400, "bad_request", map[string]any{"field": "preset"}},
		{"an unknown fix profile", req(map[string]any{"fixProfile": "everything"}), 400, "bad_request", map[string]any{"field": "fixProfile"}},
		{"a project id that is none", req(map[string]any{"projectId": "nope"}), 400, "bad_request", map[string]any{"field": "projectId"}},
		{"an unknown project", req(map[string]any{"projectId": "7d444840-9dc0-11d1-b245-5ffdce74fad2"}), 404, "not_found", nil},
		{"no mediaObjectKey", req(map[string]any{"mediaObjectKey": nil}), 400, "bad_request", map[string]any{"field": "mediaObjectKey"}},
		{"unknown media", req(map[string]any{"mediaObjectKey": "media/7d444840-9dc0-11d1-b245-5ffdce74fad2"}), 404, "not_found",
			map[string]any{"field": "mediaObjectKey"}},
		{"another project's media", req(map[string]any{"projectId": pid2}), 400, "bad_request",
			map[string]any{"field": "mediaObjectKey", "reason": "other_project"}},
		{"media still pending", req(map[string]any{"mediaObjectKey": pending.ObjectKey}), 409, "conflict",
			map[string]any{"reason": "upload_pending"}},
		{"a project without a timeline", req(map[string]any{"projectId": empty, "mode": "sidecar"}), 409, "conflict",
			map[string]any{"reason": "project_empty"}},
		{"a burn-in of audio", req(map[string]any{"mode": "burn_in", "mediaObjectKey": audio.ObjectKey}), 422, "processing_failed",
			map[string]any{"reason": "no_video_stream"}},
	} {
		checkError(t, "render with "+c.what, e.doPaced("POST", "/api/v1/jobs/render", c.body), c.status, c.code, c.want)
	}
	if got := e.usedToday(e.key); got != used {
		t.Errorf("usedToday %d after refused jobs; want %d", got, used)
	}
	// A soft track for media without video: refused up front or run
	// and failed, its run given back; never a success, never stuck.
	r := e.doPaced("POST", "/api/v1/jobs/render", req(map[string]any{"mediaObjectKey": audio.ObjectKey}))
	switch r.Status {
	case 422:
		checkError(t, "mux_soft of audio", r, 422, "processing_failed", map[string]any{"reason": "no_video_stream"})
	case 202:
		var c jobCreated
		if err := json.Unmarshal(r.Body, &c); err != nil {
			t.Fatal(err)
		}
		j, _ := e.waitJob(c.JobID, time.Minute, final)
		if j.Status != "failed" || j.Error == nil {
			t.Errorf("mux_soft of audio: %+v; want it failed", j)
		} else {
			t.Logf("mux_soft of audio accepted, then failed: %s: %s", j.Error.Code, j.Error.Message)
		}
		if got := e.usedToday(e.key); got != used {
			t.Errorf("usedToday %d after a failed job; want %d (its run given back)", got, used)
		}
	default:
		t.Errorf("mux_soft of audio: %d %s", r.Status, r.Body)
	}
	checkError(t, "GET of a job id that is none", e.do(e.key, "GET", "/api/v1/jobs/nope", nil), 404, "not_found", nil)
	checkError(t, "jobs of a project id that is none", e.do(e.key, "GET", "/api/v1/jobs?projectId=nope", nil), 400, "bad_request",
		map[string]any{"field": "projectId"})
}

// doPaced is do with the owner's key, sent again after the wait a 429
// rate_limited asks for (the export-operation burst limit, which a
// refused job may count against), for up to 30 s.
func (e *videoEnv) doPaced(method, path string, body any) response {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.do(e.key, method, path, body)
		if r.Status != 429 || time.Now().After(deadline) {
			return r
		}
		secs, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		time.Sleep(time.Duration(max(secs, 1)) * time.Second)
	}
}

// audioClip is a 3 s AAC file without video.
func audioClip(t testing.TB) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tone.m4a")
	cmd := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "aac", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// compact shortens a list of progress values to its changes.
func compact(seen []float64) []float64 {
	var out []float64
	for _, p := range seen {
		p = math.Round(p*1000) / 1000
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

// artifactFile checks a video job's one artifact (name suffix, media
// type), downloads it and returns its path.
func (e *videoEnv) artifactFile(t *testing.T, j *httpapi.JobView, suffix, ctype string) string {
	t.Helper()
	if len(j.Artifacts) != 1 || !strings.HasSuffix(j.Artifacts[0].Filename, suffix) || j.Artifacts[0].ContentType != ctype ||
		j.Artifacts[0].Bytes <= 0 {
		t.Fatalf("artifacts %+v; want one *%s (%s)", j.Artifacts, suffix, ctype)
	}
	b := e.download(j.Artifacts[0].ArtifactID)
	return writeTemp(t, "out"+filepath.Ext(suffix), b)
}

// checkMuxed checks a mux_soft output: the source's video and audio
// stream-copied, one subtitle track of codec, tagged lang, default,
// whose cues are the delivery's (text, and times within 40 ms).
func checkMuxed(t *testing.T, src, out, codec, lang string, delivery []byte, from string) {
	t.Helper()
	streams := fftest.Streams(t, out)
	if len(streams) != 3 || streams[0].Codec != "h264" || streams[1].Codec != "aac" ||
		streams[2] != (fftest.Stream{Type: "subtitle", Codec: codec, Language: lang, Default: true}) {
		t.Errorf("streams %+v; want h264, aac and a default %s track tagged %s", streams, codec, lang)
	}
	for _, spec := range []string{"v:0", "a:0"} {
		if a, b := streamMD5(t, src, spec), streamMD5(t, out, spec); a != b {
			t.Errorf("stream %s not copied: md5 %s, source %s", spec, b, a)
		}
	}
	_, track, _, err := format.Read("delivery."+from, from, delivery)
	if err != nil || track == nil || len(track.Cues) == 0 {
		t.Fatalf("read the delivery: %v", err)
	}
	checkCues(t, fftest.Cues(t, out, 0), track.Cues)
}

// checkCues compares cues read back from a file with the delivery's.
func checkCues(t *testing.T, got []fftest.Cue, want []caption.Cue) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d cues read back; want %d: %+v", len(got), len(want), got)
	}
	near := func(d time.Duration, ms int64) bool { return math.Abs(float64(d.Milliseconds()-ms)) <= 40 }
	for i, w := range want {
		g := got[i]
		if !near(g.Start, w.StartMs) || !near(g.End, w.EndMs) || strings.Join(strings.Fields(g.Text), " ") != strings.Join(strings.Fields(w.Text), " ") {
			t.Errorf("cue %d: %v-%v %q; want %d-%d ms %q", i+1, g.Start, g.End, g.Text, w.StartMs, w.EndMs, w.Text)
		}
	}
}

// compareBottom compares the bottom quarter of the frames of src and out
// shown at at: ink counts the pixels near white in out that the source
// does not have; diff is the mean absolute difference per channel.
func compareBottom(t *testing.T, src, out string, at time.Duration) (ink int, diff float64) {
	t.Helper()
	w, h, a := fftest.FrameRGB(t, src, at)
	w2, h2, b := fftest.FrameRGB(t, out, at)
	if w != w2 || h != h2 {
		t.Fatalf("frame sizes %dx%d and %dx%d", w, h, w2, h2)
	}
	from := (h * 3 / 4) * w * 3
	sum := 0
	for i := from; i+2 < len(a); i += 3 {
		d, white := 0, true
		for c := range 3 {
			d += abs(int(a[i+c]) - int(b[i+c]))
			white = white && b[i+c] > 200
		}
		sum += d
		if white && d > 90 {
			ink++
		}
	}
	return ink, float64(sum) / float64(len(a)-from)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// longClip is the clip of the cancel and kill tests: 20 s of 1280x720,
// whose burn-in lasts many seconds.
func longClip(t testing.TB) string {
	return fftest.Clip(t, fftest.ClipOptions{Width: 1280, Height: 720, Seconds: 20})
}

// TestVideoCancel: with one heavy worker, a second burn-in waits queued
// behind a running one. Canceling the queued one ends it at once and it
// never starts; canceling the running one stops its ffmpeg (no process
// left in the work folder, the folder empty, no artifact). A second
// cancel is 409 job_finished, another account's is 404, and both runs go
// back to the daily pool.
func TestVideoCancel(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, func(cfg *server.Config) { cfg.VideoWorkers = 1 })
	pid := e.newProject("Cancel", mediaIR)
	m := e.uploadFile(pid, longClip(t))
	used := e.usedToday(e.key)
	req := map[string]any{"projectId": pid, "mode": "burn_in", "preset": "youtube", "mediaObjectKey": m.ObjectKey}

	a := e.render(req)
	running, _ := e.waitJob(a.JobID, time.Minute, func(j *httpapi.JobView) bool { return j.Status != "queued" && j.Progress > 0 || final(j) })
	if running.Status != "running" || running.StartedAt == nil {
		t.Fatalf("first burn-in: %+v; want it running", running)
	}
	if procs := workProcs(e.dir); len(procs) == 0 {
		t.Errorf("no process works in %s while a burn-in runs", filepath.Join(e.dir, "work"))
	}
	b := e.render(req)
	if b.EstimatedWaitSeconds <= 0 {
		t.Errorf("queued behind a running burn-in, estimatedWaitSeconds %d", b.EstimatedWaitSeconds)
	}
	if got := e.usedToday(e.key); got != used+2 || b.RemainingAPIRunsToday != a.RemainingAPIRunsToday-1 {
		t.Errorf("usedToday %d (was %d), remaining %d then %d; want two runs taken", got, used, a.RemainingAPIRunsToday, b.RemainingAPIRunsToday)
	}
	queued := e.getJob(b.JobID)
	if queued.Status != "queued" || queued.StartedAt != nil || queued.EstimatedWaitSeconds == nil {
		t.Fatalf("second burn-in: %+v; want it queued with a wait estimate", queued)
	}

	var out struct { // httpapi's jobResult is unexported: its one member
		Job httpapi.JobView `json:"job"`
	}
	e.call("DELETE", "/api/v1/jobs/"+b.JobID, nil, 200, &out)
	if j := out.Job; j.Status != "canceled" || j.Error == nil || j.Error.Code != "canceled" || j.FinishedAt == nil || j.StartedAt != nil {
		t.Errorf("canceled queued job: %+v", j)
	}
	stop := time.Now()
	e.call("DELETE", "/api/v1/jobs/"+a.JobID, nil, 200, &out)
	if j := out.Job; j.Status != "canceled" || j.Error == nil || j.Error.Code != "canceled" || j.FinishedAt == nil || j.StartedAt == nil {
		t.Errorf("canceled running job: %+v", j)
	}
	// ffmpeg stops, its run folder goes.
	deadline := time.Now().Add(15 * time.Second)
	for {
		procs, left := workProcs(e.dir), listDir(filepath.Join(e.dir, "work"))
		if len(procs) == 0 && len(left) == 0 {
			t.Logf("ffmpeg stopped and its folder removed %v after the cancel", time.Since(stop).Round(10*time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15 s after the cancel: processes %v, work folder %v", procs, left)
		}
		time.Sleep(50 * time.Millisecond)
	}

	other := e.otherAccount("other@example.com")
	checkError(t, "another account's GET", e.do(other, "GET", "/api/v1/jobs/"+a.JobID, nil), 404, "not_found", nil)
	checkError(t, "another account's DELETE", e.do(other, "DELETE", "/api/v1/jobs/"+a.JobID, nil), 404, "not_found", nil)
	checkError(t, "a second DELETE", e.do(e.key, "DELETE", "/api/v1/jobs/"+a.JobID, nil), 409, "conflict",
		map[string]any{"reason": "job_finished", "status": "canceled"})
	checkError(t, "DELETE of an unknown job", e.do(e.key, "DELETE", "/api/v1/jobs/"+"7d444840-9dc0-11d1-b245-5ffdce74fad2", nil), 404, "not_found", nil)

	// The lane is free: a third burn-in starts on its one worker, which has
	// so passed the canceled queued job ahead of it; that one never
	// started, and the canceled running one stays canceled, without
	// artifacts.
	c := e.render(req)
	if j, _ := e.waitJob(c.JobID, time.Minute, func(j *httpapi.JobView) bool { return j.Status != "queued" && j.Progress > 0 || final(j) }); j.Status != "running" {
		t.Fatalf("third burn-in: %+v; want it running", j)
	}
	e.call("DELETE", "/api/v1/jobs/"+c.JobID, nil, 200, nil)
	if j := e.getJob(b.JobID); j.Status != "canceled" || j.StartedAt != nil {
		t.Errorf("canceled queued job later: %+v", j)
	}
	if j := e.getJob(a.JobID); j.Status != "canceled" || len(j.Artifacts) != 0 || j.Error == nil || j.Error.Code != "canceled" {
		t.Errorf("canceled running job later: %+v", j)
	}
	if left := listDir(blobFile(e.dir, "artifacts")); len(left) != 0 {
		t.Errorf("artifacts stored: %v", left)
	}
	if got := e.usedToday(e.key); got != used {
		t.Errorf("usedToday %d after both jobs were canceled; want %d (the runs given back)", got, used)
	}
	if n := strings.Count(e.log.String(), "video job failed"); n != 0 {
		t.Errorf("the log has %d failed jobs; canceled jobs are not failures", n)
	}
}
