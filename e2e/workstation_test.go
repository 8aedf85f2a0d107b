package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestWorkstationLoop drives the editor on a spoken programme: the
// video plays with the draft's captions over it, a cue flagged for its
// over-long line is fixed by keyboard and its problem clears on the live
// check, a cue dragged on the timeline moves, the draft survives leaving
// the editor, Ctrl+S saves it as revision 2, and the project exports it.
func TestWorkstationLoop(t *testing.T) {
	t.Parallel()
	programme.Need(t)
	texts := []string{"Welcome back to the harbour show.", "Tonight we look at the tide tables.", "The ferry leaves at six every morning."}
	var lines []programme.Line
	for i, s := range texts {
		lines = append(lines, programme.Line{AtMs: 1000 + int64(i)*4000, Text: s})
	}
	truth := programme.Cached(t, programme.Spec{Lines: lines, Container: "mp4",
		Scenes: []programme.Scene{{Source: "testsrc2", Frames: 150}, {Source: "smptebars", Frames: 200}}})
	e := newMediaEnv(t)
	long := "The ferry leaves at six every morning from the old harbour wall, rain or shine, all year round."
	var cues []string
	for i, s := range truth.Speech {
		text := texts[i]
		if i == 2 {
			text = long
		}
		cues = append(cues, fmt.Sprintf(`{"id":"c%d","startMs":%d,"endMs":%d,"text":%q}`, i+1, s.StartMs, s.EndMs+400, text))
	}
	p := irProject(t, e, "Workstation", cues)

	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("media page", click("#nav-media"), chromedp.WaitVisible(chromedp.CSS("#upload-card")))
	b.run("choose programme", chromedp.SetUploadFiles(chromedp.CSS("#media-file"), []string{truth.Path}))
	b.waitLong("media row", `document.querySelectorAll("#media-body tr[data-status=completed]").length === 1`, 30*time.Second, `document.getElementById("media-card").innerText`)

	b.run("project page", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID))
	b.run("open the editor", click("#project-edit"))
	b.waitLong("editor", `document.querySelectorAll("#cue-list .cue-row").length === 3 && document.getElementById("ws-video") !== null`, 20*time.Second, `document.body.innerText`)
	b.waitLong("video ready", `document.getElementById("ws-video").readyState >= 1`, 20*time.Second, `String(document.getElementById("ws-video").error && document.getElementById("ws-video").error.message)`)
	// The draft's captions are over the picture: the cue at the playhead is active.
	b.waitJS("captions on the video", `document.getElementById("ws-video").textTracks[0].cues.length === 3`)
	mid := (truth.Speech[1].StartMs + truth.Speech[1].EndMs) / 2
	eval[bool](b, fmt.Sprintf(`(document.getElementById("ws-video").currentTime = %f, true)`, float64(mid)/1000))
	b.waitJS("cue 2 shown", `(() => { const a = document.getElementById("ws-video").textTracks[0].activeCues; return a && a.length === 1 && a[0].text.startsWith("Tonight"); })()`)
	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.press(" ")
	b.waitJS("playing", `!document.getElementById("ws-video").paused`)
	b.press(" ")
	b.waitJS("paused", `document.getElementById("ws-video").paused`)

	// The live check flags cue 3's line; the fix clears it.
	flagged := `.cue-row[data-index="2"] .cue-problem[data-code="line_too_long"]`
	b.waitLong("flagged", fmt.Sprintf(`document.querySelector(%q) !== null`, flagged), 20*time.Second, `document.getElementById("ws-check").innerText`)
	b.shots("60-workstation-flagged")
	text := `.cue-row[data-index="2"] .cue-text`
	b.run("focus the text", chromedp.Focus(chromedp.CSS(text)))
	eval[bool](b, fmt.Sprintf(`(document.querySelector(%q).select(), true)`, text))
	b.run("fix the text by keyboard", chromedp.SendKeys(chromedp.CSS(text), "The ferry leaves at six."), chromedp.KeyEvent(kb.Tab))
	b.waitLong("problem cleared", fmt.Sprintf(`document.querySelector(%q) === null && document.getElementById("ws-check").innerText.startsWith("Checked")`, flagged), 20*time.Second, `document.getElementById("ws-check").innerText`)
	if got := eval[string](b, `document.getElementById("ws-status").innerText`); !strings.Contains(got, "Unsaved") {
		t.Errorf("status after the edit = %q", got)
	}
	// Dragging cue 1 on the timeline moves it: its in-time follows.
	before := eval[string](b, `document.querySelector('.cue-row[data-index="0"] .cue-in').value`)
	box := eval[[]float64](b, `(() => { const r = document.querySelector('#ws-timeline rect.cue[data-cue="0"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	b.run("drag cue 1", chromedp.MouseEvent(chromedp.MousePressed, box[0], box[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, box[0]+20, box[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, box[0]+40, box[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, box[0]+40, box[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	b.waitJS("cue 1 moved", fmt.Sprintf(`document.querySelector('.cue-row[data-index="0"] .cue-in').value !== %q`, before))
	// The edit survives leaving the editor (a reload asks first while
	// edits are unsaved, so the test leaves by the address).
	b.run("leave", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID))
	b.waitJS("project page", `document.getElementById("project-edit") !== null`)
	b.run("come back", click("#project-edit"))
	b.waitLong("restored", `document.getElementById("ws-restored") !== null`, 20*time.Second, `document.body.innerText`)
	if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).value`, text)); got != "The ferry leaves at six." {
		t.Errorf("text after the reload = %q", got)
	}
	b.shots("61-workstation-fixed")

	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.run("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitLong("saved", `document.getElementById("ws-status").innerText.includes("Revision 2, saved")`, 20*time.Second, `document.getElementById("ws-status").innerText + " / " + document.getElementById("ws-conflict").innerText + " / " + document.getElementById("ws-error").innerText`)
	status, raw := e.api(t, "GET", "/api/v1/projects/"+p.ID, "", nil, "")
	var after httpapi.ProjectView
	if status != 200 || json.Unmarshal(raw, &after) != nil || after.IRRevision != 2 {
		t.Fatalf("project after the save: %d %s", status, raw)
	}
	if !strings.Contains(string(raw), "The ferry leaves at six.") {
		t.Errorf("the saved revision lacks the fix: %s", raw)
	}
	// The save shows what revision 2 changed against revision 1: the
	// fixed text of cue 3 and the moved cue 1, nothing added or removed.
	b.waitJS("drift of revision 2", `document.querySelector("#ws-saved-diff #drift-summary") !== null`)
	if sum := eval[map[string]string](b, `({...document.querySelector("#ws-saved-diff #drift-summary").dataset})`); sum["changed"] != "2" || sum["added"] != "0" || sum["removed"] != "0" {
		t.Errorf("drift of the saved revision = %v; want 2 changed", sum)
	}
	b.shots("62-workstation-saved-diff")
	// Back on the project: revision 2, and an export of it.
	b.run("back to the project", click("#ws-back"))
	b.waitJS("revision 2", `(document.getElementById("project-revision") || {}).textContent === "2"`)
	b.run("export", click("#export-run"), chromedp.WaitVisible(chromedp.CSS("#export-result")))
	if got := b.text("#export-verdict"); !strings.Contains(got, "Revision 2") {
		t.Errorf("export verdict = %q; want revision 2", got)
	}
	b.shots("63-workstation-saved-exported")
}

// TestWorkstationMerge saves a draft after another revision was stored
// meanwhile: the revision lock refuses it, the editor offers a merge, and
// the merged draft (the editor's change of cue 1, the other revision's
// change of cue 3, and cue 2, changed on both sides, with the editor's
// text) saves as the next revision.
func TestWorkstationMerge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	cue := func(i int, text string) string {
		return fmt.Sprintf(`{"id":"c%d","startMs":%d,"endMs":%d,"text":%q}`, i, i*3000, i*3000+2000, text)
	}
	p := irProject(t, e, "Merge", []string{cue(1, "One."), cue(2, "Two."), cue(3, "Three.")})
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("editor", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID+"/edit"))
	b.waitLong("cues", `document.querySelectorAll("#cue-list .cue-row").length === 3`, 20*time.Second, `document.body.innerText`)
	for _, ed := range []struct{ row, text string }{{"0", "One, edited here."}, {"1", "Two, edited here."}} {
		sel := fmt.Sprintf(`.cue-row[data-index=%q] .cue-text`, ed.row)
		b.run("focus "+ed.row, chromedp.Focus(chromedp.CSS(sel)))
		eval[bool](b, fmt.Sprintf(`(document.querySelector(%q).select(), true)`, sel))
		b.run("type "+ed.row, chromedp.SendKeys(chromedp.CSS(sel), ed.text), chromedp.KeyEvent(kb.Tab))
	}
	b.waitJS("dirty", `document.getElementById("ws-status").innerText.includes("Unsaved")`)

	// Meanwhile an integration stores revision 2 through the API.
	theirs := `{"version":1,"language":"en","cues":[` + cue(1, "One.") + "," + cue(2, "Two, edited there.") + "," + cue(3, "Three, edited there.") + `]}`
	body, _ := json.Marshal(map[string]any{"ir": theirs, "baseRevision": 1})
	if status, raw := e.api(t, "PUT", "/api/v1/projects/"+p.ID+"/ir", "application/json", strings.NewReader(string(body)), ""); status != 200 {
		t.Fatalf("PUT revision 2: %d %s", status, raw)
	}

	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.run("save", click("#ws-save"))
	b.waitLong("stale notice", `document.getElementById("ws-stale") !== null`, 20*time.Second, `document.getElementById("ws-conflict").innerText + " / " + document.getElementById("ws-error").innerText`)
	if got := eval[map[string]string](b, `({...document.getElementById("ws-stale").dataset})`); got["mine"] != "2" || got["theirs"] != "2" || got["conflicts"] != "1" {
		t.Errorf("stale notice = %v; want 2 mine, 2 theirs, 1 conflict", got)
	}
	b.shots("64-workstation-stale")
	b.run("merge", click("#ws-merge"))
	b.waitAcrossReload("merged", `document.getElementById("ws-merged") !== null && document.querySelectorAll("#cue-list .cue-row").length === 3`, 20*time.Second, `String(document.body && document.body.innerText)`)
	if got := eval[[]string](b, `[...document.querySelectorAll("#ws-merged .ws-merged-cue")].map(a => a.textContent)`); strings.Join(got, ",") != "cue 2" {
		t.Errorf("merged notice names %v; want cue 2", got)
	}
	if got := eval[[]string](b, `[0, 1, 2].map(i => document.querySelector('.cue-row[data-index="' + i + '"] .cue-text').value)`); strings.Join(got, "|") != "One, edited here.|Two, edited here.|Three, edited there." {
		t.Errorf("merged texts = %q", got)
	}
	b.run("save the merge", click("#ws-save"))
	b.waitLong("saved", `document.getElementById("ws-status").innerText.includes("Revision 3, saved")`, 20*time.Second, `document.getElementById("ws-status").innerText + " / " + document.getElementById("ws-conflict").innerText`)
	status, raw := e.api(t, "GET", "/api/v1/projects/"+p.ID, "", nil, "")
	if status != 200 || !strings.Contains(string(raw), "One, edited here.") || !strings.Contains(string(raw), "Three, edited there.") || !strings.Contains(string(raw), `"irRevision":3`) {
		t.Errorf("project after the merge: %d %.400s", status, raw)
	}
}

// irProject creates a project whose timeline is these IR cues (JSON
// objects) in English.
func irProject(t *testing.T, e *env, name string, cues []string) httpapi.ProjectView {
	t.Helper()
	ir := `{"version":1,"language":"en","cues":[` + strings.Join(cues, ",") + `]}`
	body, _ := json.Marshal(map[string]string{"name": name, "ir": ir})
	status, raw := e.api(t, "POST", "/api/v1/projects", "application/json", strings.NewReader(string(body)), "")
	var p httpapi.ProjectView
	if status != 201 || json.Unmarshal(raw, &p) != nil {
		t.Fatalf("create project %s: %d %.300s", name, status, raw)
	}
	return p
}
