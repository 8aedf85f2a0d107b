package server_test

import (
	"testing"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestVideoPreviewJob: POST /api/v1/jobs/render takes mode preview
// without a preset and makes a WebM of VP9 of a programme no browser
// plays; GET /api/v1/jobs?mode=preview finds it past newer jobs of other
// modes; an unknown mode is still 400 on both routes.
func TestVideoPreviewJob(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a preview with ffmpeg (make test runs it)")
	}
	t.Parallel()
	e := newVideoEnv(t, nil)
	pid := e.newProject("Harbour show", mediaIR)
	m := e.uploadFile(pid, programme.Cached(t, programme.Unplayable()).Path)

	c := e.render(map[string]any{"projectId": pid, "mode": "preview", "mediaObjectKey": m.ObjectKey})
	j, _ := e.waitJob(c.JobID, jobWait, final)
	if j.Status != "succeeded" || j.Mode != "preview" || j.Preset != "" || j.Container != "webm" {
		t.Fatalf("preview job %+v; want it succeeded, no preset, webm", j)
	}
	out := e.artifactFile(t, j, "-preview.webm", "video/webm")
	if tm := fftest.TimingOf(t, out); tm.VideoCodec != "vp9" || tm.AudioCodec != "opus" || tm.Width != 640 {
		t.Errorf("preview %s/%s %d wide; want vp9/opus 640", tm.VideoCodec, tm.AudioCodec, tm.Width)
	}

	// A newer job of another mode: the filter still finds the preview.
	other := e.render(map[string]any{"projectId": pid, "mode": "sidecar", "preset": "youtube", "outputDelivery": "inline"})
	e.waitJob(other.JobID, jobWait, final)
	var list struct { // httpapi's jobList is unexported: its one member
		Jobs []httpapi.JobView `json:"jobs"`
	}
	e.call("GET", "/api/v1/jobs?projectId="+pid+"&mode=preview", nil, 200, &list)
	if len(list.Jobs) != 1 || list.Jobs[0].JobID != c.JobID || len(list.Jobs[0].Artifacts) != 1 {
		t.Errorf("mode=preview lists %+v; want the preview alone, with its artifact", list.Jobs)
	}
	e.call("GET", "/api/v1/jobs?projectId="+pid, nil, 200, &list)
	if len(list.Jobs) != 2 {
		t.Errorf("unfiltered: %d jobs; want 2", len(list.Jobs))
	}

	r := e.call("GET", "/api/v1/jobs?projectId="+pid+"&mode=karaoke", nil, 400, nil)
	checkError(t, "list by an unknown mode", r, 400, "bad_request", map[string]any{"field": "mode"})
	r = e.call("POST", "/api/v1/jobs/render", map[string]any{"projectId": pid, "mode": "karaoke", "mediaObjectKey": m.ObjectKey}, 400, nil)
	checkError(t, "render an unknown mode", r, 400, "bad_request", map[string]any{"field": "mode"})
	r = e.call("POST", "/api/v1/jobs/render", map[string]any{"projectId": pid, "mode": "burn_in", "mediaObjectKey": m.ObjectKey}, 400, nil)
	checkError(t, "burn_in without a preset", r, 400, "bad_request", map[string]any{"field": "preset"})
}
