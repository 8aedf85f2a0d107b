package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestWorkstationPreview opens the editor on an MPEG-2 programme, which
// the browser cannot play (analysed, so the editor has its 29.97 fps):
// the player says so and offers a preview; the
// button starts its render job, the player follows the job to its end
// and plays the preview (frames shown, time moving); a reload plays the
// same preview again without making a second one.
func TestWorkstationPreview(t *testing.T) {
	t.Parallel()
	programme.Need(t)
	truth := programme.Cached(t, programme.Unplayable())
	e := newMediaEnv(t)
	s := truth.Speech[0]
	p := irProject(t, e, "Preview", []string{fmt.Sprintf(`{"id":"c1","startMs":%d,"endMs":%d,"text":"This programme plays in the editor as a preview."}`, s.StartMs, s.EndMs+400)})

	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("media page", click("#nav-media"), chromedp.WaitVisible(chromedp.CSS("#upload-card")))
	b.run("choose programme", chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{truth.Path}))
	b.waitLong("media row", `document.querySelectorAll("#media-body tr[data-status=completed]").length === 1`, 30*time.Second, `document.getElementById("media-card").innerText`)

	// Analysed, the programme gives the editor its frame rate (29.97).
	upload := strings.TrimPrefix(eval[string](b, `document.querySelector("#media-body tr[data-status=completed]").dataset.objectKey`), "media/")
	b.run("analyse", click("#analyze-"+upload))
	b.waitLong("analysis done", `document.querySelector(".job-analysis") !== null`, 2*time.Minute, `document.getElementById("jobs-card").innerText`)

	editor := e.ts.URL + "/#/projects/" + p.ID + "/edit"
	b.run("open the editor", chromedp.Navigate(editor))
	b.waitLong("cannot-play notice", `document.getElementById("ws-make-preview") !== null && !document.getElementById("ws-make-preview").hidden`, 20*time.Second, `document.body.innerText`)
	if got := b.text("#ws-cannot-play"); !strings.Contains(got, "This media cannot play in this window") || !strings.Contains(got, "mpeg2video") {
		t.Errorf("notice %q", got)
	}
	b.shots("63-workstation-cannot-play")

	b.run("make the preview", click("#ws-make-preview"))
	previews := func() []httpapi.JobView {
		status, raw := e.api(t, "GET", "/api/v1/jobs?projectId="+p.ID+"&mode=preview", "", nil, "")
		var list struct {
			Jobs []httpapi.JobView `json:"jobs"`
		}
		if status != 200 || json.Unmarshal(raw, &list) != nil {
			t.Fatalf("list previews: %d %s", status, raw)
		}
		return list.Jobs
	}
	// The page follows the job: it plays the preview once the job
	// succeeded, and not before.
	b.waitLong("preview playing", `document.getElementById("ws-preview-playing") !== null`, 3*time.Minute,
		`(document.getElementById("ws-player-notice") || document.body).innerText`)
	jobs := previews()
	if len(jobs) != 1 || jobs[0].Status != "succeeded" || jobs[0].MediaObjectKey == "" {
		t.Fatalf("preview jobs %+v; want one, succeeded", jobs)
	}
	if got := eval[string](b, `document.getElementById("ws-video").dataset.preview`); got != jobs[0].JobID {
		t.Errorf("the player plays job %q; want %q", got, jobs[0].JobID)
	}
	b.waitLong("preview ready", `document.getElementById("ws-video").readyState >= 2`, 20*time.Second,
		`String(document.getElementById("ws-video").error && document.getElementById("ws-video").error.message)`)
	// The preview's times are the programme's, from its start: it lasts
	// the programme's 10 s, not the 11.4 s of the MPEG-TS's raw times.
	if d := eval[float64](b, `document.getElementById("ws-video").duration`); d < float64(truth.DurationMs)/1000-0.05 || d > float64(truth.DurationMs)/1000+0.05 {
		t.Errorf("preview duration %.3f s; want the programme's %.3f s", d, float64(truth.DurationMs)/1000)
	}
	start := eval[float64](b, `document.getElementById("ws-video").currentTime`)
	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.press(" ")
	b.waitLong("time moves", fmt.Sprintf(`document.getElementById("ws-video").currentTime > %f && document.getElementById("ws-video").readyState >= 2`, start+1), 20*time.Second,
		`String(document.getElementById("ws-video").currentTime) + " " + document.getElementById("ws-video").paused`)
	b.press(" ")
	b.waitJS("paused", `document.getElementById("ws-video").paused`)
	// The readout counts the programme's frames, as on the original.
	if got := b.text("#ws-timecode"); !regexp.MustCompile(`^\d\d:\d\d:\d\d:\d\d$`).MatchString(got) {
		t.Errorf("timecode readout %q; want HH:MM:SS:FF at the programme's rate", got)
	}
	// The draft's cue shows over the preview at its time.
	mid := float64(s.StartMs+s.EndMs) / 2000
	eval[bool](b, fmt.Sprintf(`(document.getElementById("ws-video").currentTime = %f, true)`, mid))
	b.waitJS("cue shown", `(() => { const a = document.getElementById("ws-video").textTracks[0].activeCues; return a && a.length === 1; })()`)
	eval[bool](b, `(document.getElementById("ws-title").scrollIntoView({block: "start"}), true)`)
	b.shots("64-workstation-preview-playing")

	// A reload finds the preview: no second job.
	b.run("leave", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID))
	b.waitJS("project page", `document.getElementById("project-edit") !== null`)
	b.run("come back", click("#project-edit"))
	b.waitLong("preview again", `document.getElementById("ws-preview-playing") !== null && document.getElementById("ws-video").readyState >= 1`, 20*time.Second, `document.body.innerText`)
	if n := len(previews()); n != 1 {
		t.Errorf("%d preview jobs after coming back; want the one", n)
	}
}
