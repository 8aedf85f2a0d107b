package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestProgrammeOnTheTimeline: a spoken programme with hard cuts is
// uploaded and analysed from Media & Jobs; the project page then draws
// its waveform, speech and shot changes under the cues, checks the
// captions (2 s late) against it and offers the resync, whose preview
// can be saved as the next revision.
func TestProgrammeOnTheTimeline(t *testing.T) {
	t.Parallel()
	programme.Need(t)
	texts := []string{"Welcome back to the harbour show.", "Tonight we look at the tide tables.",
		"The ferry leaves at six every morning.", "Thank you for watching, good night."}
	var lines []programme.Line
	for i, text := range texts {
		lines = append(lines, programme.Line{AtMs: 1000 + int64(i)*4000, Text: text})
	}
	truth := programme.Cached(t, programme.Spec{Lines: lines, Container: "mp4",
		Scenes: []programme.Scene{{Source: "testsrc2", Frames: 100}, {Source: "smptebars", Frames: 150}, {Source: "rgbtestsrc", Frames: 200}}})
	e := newMediaEnv(t)
	var cues []string
	for i, s := range truth.Speech {
		cues = append(cues, fmt.Sprintf(`{"id":"%d","startMs":%d,"endMs":%d,"text":%q}`, i+1, s.StartMs+2000, s.EndMs+2300, texts[i]))
	}
	p := irProject(t, e, "Harbour programme", cues)

	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("media page", click("#nav-media"), chromedp.WaitVisible(chromedp.CSS("#upload-card")))
	b.run("choose programme", chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{truth.Path}))
	b.waitLong("media row", `document.querySelectorAll("#media-body tr[data-status=completed]").length === 1`, 2*time.Minute, `document.getElementById("media-card").innerText`)
	upload := eval[string](b, `document.querySelector("#media-body tr[data-status=completed]").dataset.objectKey`)
	upload = strings.TrimPrefix(upload, "media/")
	b.run("analyse", click("#analyze-"+upload))
	b.waitLong("analysis done", `document.querySelector(".job-analysis") !== null`, 3*time.Minute, `document.getElementById("jobs-card").innerText`)
	if got := b.textN(".job-analysis"); !strings.Contains(got, fmt.Sprintf("%d shot changes", len(truth.Cuts))) {
		t.Errorf("analysis summary = %q; want %d shot changes", got, len(truth.Cuts))
	}
	b.shots("55-media-analysed")

	b.run("project page", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID))
	b.waitLong("programme drawn", `document.getElementById("timeline-waveform") !== null && document.getElementById("timeline-speech") !== null`, time.Minute, `document.body.innerText`)
	if n := eval[int](b, `document.querySelectorAll(".shot-change").length`); n != len(truth.Cuts) {
		t.Errorf("%d shot changes drawn; want %d", n, len(truth.Cuts))
	}
	if got := b.textN("#programme-legend"); !strings.Contains(got, "Shot change") {
		t.Errorf("legend = %q", got)
	}
	b.run("check", click("#programme-check"))
	b.waitLong("sync notice", `document.getElementById("sync-notice") !== null`, time.Minute, `document.body.innerText`)
	if got := b.textN("#sync-notice"); !strings.Contains(got, "late") || !strings.Contains(got, "2.0") {
		t.Errorf("sync notice = %q; want the captions about 2 s late", got)
	}
	b.shots("56-programme-check")
	// Each finding on a cue links to the cue in the editor.
	goTo := eval[string](b, `[...document.querySelectorAll("#programme-diag-table a.go-to-cue")].pop().getAttribute("href")`)
	goToCue := eval[string](b, `[...document.querySelectorAll("#programme-diag-table a.go-to-cue")].pop().textContent.slice(1)`)
	if want := "#/projects/" + p.ID + "/edit/" + goToCue; goTo != want {
		t.Errorf("Go to cue links to %q; want %q", goTo, want)
	}
	b.run("preview resync", click("#sync-fix"))
	b.waitLong("resync preview", `document.getElementById("sync-save") !== null`, time.Minute, `document.getElementById("sync-notice").innerText`)
	b.run("save resync", click("#sync-save"))
	b.waitLong("saved", `!document.body.innerText.includes("Save as revision 2")`, time.Minute, `document.body.innerText`)
	status, raw := e.api(t, "GET", "/api/v1/projects/"+p.ID, "", nil, "")
	var after httpapi.ProjectView
	if status != 200 || json.Unmarshal(raw, &after) != nil || after.IRRevision != 2 {
		t.Fatalf("project after the resync: %d %s", status, raw)
	}
	b.shots("57-programme-resynced")

	// A finding's "Go to cue" opens the editor on that cue.
	b.run("go to cue", chromedp.Navigate(e.ts.URL+"/"+goTo))
	b.waitLong("editor on the cue", fmt.Sprintf(`(r => r !== null && String(Number(r.dataset.index) + 1) === %q)(document.querySelector("#cue-list .cue-row.selected"))`, goToCue), time.Minute, `document.body.innerText.slice(0, 400)`)
}
