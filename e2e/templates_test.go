package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

// speakersVTT has a first cue without a voice, then two speakers.
const speakersVTT = `WEBVTT

00:00:01.000 --> 00:00:03.000
[WAVES CRASHING]

00:00:03.500 --> 00:00:06.000
<v Marta>Welcome back to the harbour show.

00:00:06.500 --> 00:00:09.000
<v Marta>Tonight: the tide tables,
and the night ferries.

00:00:09.500 --> 00:00:12.000
<v Jonas>The ferry leaves at six.
`

// brokenScript fails when it runs: the first cue has no speaker.
const brokenScript = "function exportTimeline(cues, ctx) {\n  return cues[0].speaker.toUpperCase();\n}\n"

// apiJSON sends a JSON body with the owner's key and decodes the answer into out.
func (e *env) apiJSON(t *testing.T, method, path, body string, out any) int {
	t.Helper()
	status, raw := e.api(t, method, path, "application/json", strings.NewReader(body), "")
	if out != nil && status < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	if status >= 300 {
		t.Logf("%s %s: %d %s", method, path, status, raw)
	}
	return status
}

// editorText is the CodeMirror document as the page holds it.
const editorText = `(() => { const v = document.querySelector("#template-source-wrap .cm-content"); return [...v.querySelectorAll(".cm-line")].map(l => l.textContent).join("\n"); })()`

// lintLine is the line number, as the gutter shows it, of the first error
// underline in the editor; 0 without one. (The editor renders only the
// lines in view, so the gutter's number is the way to tell the line.)
const lintLine = `(() => {
	const r = document.querySelector("#template-source-wrap .cm-lintRange-error");
	if (!r) return 0;
	const top = r.closest(".cm-line").getBoundingClientRect().top;
	let best = 0, dist = Infinity;
	for (const g of document.querySelectorAll("#template-source-wrap .cm-lineNumbers .cm-gutterElement")) {
		const d = Math.abs(g.getBoundingClientRect().top - top);
		if (g.textContent && g.style.visibility !== "hidden" && d < dist) { dist = d; best = parseInt(g.textContent, 10); }
	}
	return best;
})()`

// lastLine is the highest line number the gutter shows.
const lastLine = `Math.max(...[...document.querySelectorAll("#template-source-wrap .cm-lineNumbers .cm-gutterElement")].filter(g => g.style.visibility !== "hidden").map(g => parseInt(g.textContent, 10) || 0))`

func TestTemplatesPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	ct, body := multipartForm(t, "harbour show.vtt", []byte(speakersVTT), map[string]string{"name": "harbour show"})
	status, raw := e.api(t, "POST", "/api/v1/projects", ct, body, "")
	var proj httpapi.ProjectView
	if status != 201 || json.Unmarshal(raw, &proj) != nil || proj.ID == "" {
		t.Fatalf("create project: %d %s", status, raw)
	}
	if s := e.apiJSON(t, "POST", "/api/v1/projects", `{"name":"Blank"}`, nil); s != 201 {
		t.Fatalf("create empty project: %d", s)
	}
	var broken httpapi.TemplateView
	src, _ := json.Marshal(brokenScript)
	if s := e.apiJSON(t, "POST", "/api/v1/export-templates", `{"name":"Broken","scriptSource":`+string(src)+`}`, &broken); s != 201 {
		t.Fatalf("create template: %d", s)
	}

	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// Export templates is a page in the nav now, not a "soon" item.
	if got := eval[string](b, `[...document.querySelectorAll("#nav .later")].map(l => l.textContent).join("|")`); strings.Contains(got, "Export templates") {
		t.Errorf("later nav items = %q, want no Export templates", got)
	}
	b.run("templates page", click("#nav-templates"), chromedp.WaitVisible(chromedp.CSS("#template-form")))
	if got := b.text("#page-title"); got != "Export templates" {
		t.Errorf("page title = %q", got)
	}
	b.waitJS("list", `document.querySelectorAll("#templates-body tr[data-template-id]").length === 1`)
	if got := b.text("#templates-body tr .template-open"); got != "Broken" {
		t.Errorf("list = %q", got)
	}
	// The editor: labelled, with line numbers and JavaScript highlighting.
	if got := eval[string](b, `document.getElementById("template-source").getAttribute("aria-labelledby")`); got != "template-source-label" {
		t.Errorf("editor aria-labelledby = %q", got)
	}
	if got := b.text("#template-source-label"); got != "Script (JavaScript)" {
		t.Errorf("editor label = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#template-source-wrap .cm-lineNumbers .cm-gutterElement").length`); n < 5 {
		t.Errorf("line numbers: %d gutter elements", n)
	}
	if n := eval[int](b, `document.querySelectorAll("#template-source-wrap .cm-line span[class]").length`); n < 5 {
		t.Errorf("no syntax highlighting: %d styled spans", n)
	}
	// The picker offers the project with a timeline and greys out the empty one.
	if got := eval[string](b, `document.getElementById("template-project").value`); got != proj.ID {
		t.Errorf("default project = %q, want %q", got, proj.ID)
	}
	if !eval[bool](b, `[...document.querySelectorAll("#template-project option")].some(o => o.textContent.startsWith("Blank") && o.disabled)`) {
		t.Error("the empty project is not disabled in the picker")
	}

	// New from the review-script starter.
	eval[bool](b, `(() => { const s = document.getElementById("template-starter"); s.value = "review-script"; s.dispatchEvent(new Event("change")); return true; })()`)
	if got := b.text("#template-starter-desc"); !strings.Contains(got, "speaker") {
		t.Errorf("starter description = %q", got)
	}
	b.run("new", click("#template-new"))
	b.waitJS("name focused", `document.activeElement && document.activeElement.id === "template-name"`)
	if got := eval[string](b, `document.getElementById("template-name").value`); got != "Review script" {
		t.Errorf("name = %q", got)
	}
	if got := eval[string](b, editorText); !strings.Contains(got, "function exportTimeline(cues, ctx)") || !strings.Contains(got, "cue.speaker") {
		t.Errorf("editor text = %q", got)
	}
	if got := eval[string](b, `document.getElementById("template-filename").value + " | " + document.getElementById("template-content-type").value`); got != "{project}-script-r{revision}.txt | text/plain; charset=utf-8" {
		t.Errorf("fields = %q", got)
	}

	// A syntax error: a stray brace on the last line, marked there as it is typed.
	b.run("focus editor", click("#template-source-wrap .cm-content"))
	b.run("to the end", chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.run("type", chromedp.KeyEvent("}"))
	lines := eval[int](b, lastLine)
	if lines < 20 {
		t.Fatalf("the starter has %d lines", lines)
	}
	b.waitJS("problem listed", `!document.getElementById("template-problems").hidden`)
	b.waitJS("marked", lintLine+` > 0`)
	if got := eval[int](b, lintLine); got != lines {
		t.Errorf("the error is marked on line %d, want %d", got, lines)
	}
	if got := eval[string](b, `document.querySelector("#template-problem-list li").dataset.line`); got != fmt.Sprint(lines) {
		t.Errorf("problem line = %s, want %d", got, lines)
	}
	if got := b.text("#template-problems"); !strings.Contains(got, "SyntaxError") || !strings.Contains(got, fmt.Sprintf("Line %d:1", lines)) {
		t.Errorf("problems = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#template-source-wrap .cm-lint-marker-error").length`); n != 1 {
		t.Errorf("lint gutter markers = %d, want 1", n)
	}
	if !eval[bool](b, `!document.getElementById("template-dirty").hidden`) {
		t.Error("no unsaved-changes badge after an edit")
	}
	// Saving it is refused with the same place.
	b.run("save broken", click("#template-save"))
	b.waitJS("refused", `document.getElementById("template-save-status").textContent.startsWith("Not saved")`)
	if got := b.text("#template-save-status"); !strings.Contains(got, fmt.Sprintf("line %d, column 1", lines)) {
		t.Errorf("save status = %q", got)
	}
	b.shots("40-templates-syntax-error")
	b.narrowShots("40-templates-syntax-error")

	// Fix it: the mark goes; Save creates revision 1.
	b.focusPress("#template-source", kb.Backspace)
	b.waitJS("fixed", `document.getElementById("template-problems").hidden && `+lintLine+` === 0`)
	b.run("save", click("#template-save"))
	b.waitJS("created", `document.getElementById("template-save-status").textContent.includes("created")`)
	if got := b.text("#template-meta"); !strings.HasPrefix(got, "Revision 1.") {
		t.Errorf("meta = %q", got)
	}
	b.waitJS("two rows", `document.querySelectorAll("#templates-body tr[data-template-id]").length === 2`)
	if got := b.text(`#templates-body tr.selected .template-open`); got != "Review script" {
		t.Errorf("selected row = %q", got)
	}
	if !eval[bool](b, `document.getElementById("template-dirty").hidden`) {
		t.Error("unsaved badge after saving")
	}
	if !strings.HasPrefix(eval[string](b, `location.hash`), "#/templates/") {
		t.Errorf("hash = %q", eval[string](b, `location.hash`))
	}
	id := eval[string](b, `location.hash.split("/")[2]`)

	// Test it on the project: the output with its facts.
	b.run("test", click("#template-test"), chromedp.WaitVisible(chromedp.CSS("#template-test-ok")))
	out := b.text("#template-output")
	for _, want := range []string{"harbour show", "MARTA", "JONAS", "(NO SPEAKER)", "00:00:03.500  Welcome back to the harbour show.", "and the night ferries."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := b.text("#template-output-filename"); got != "harbour-show-script-r1.txt" {
		t.Errorf("file name = %q", got)
	}
	if got := b.text("#template-output-type"); got != "text/plain; charset=utf-8" {
		t.Errorf("content type = %q", got)
	}
	if got := b.text("#template-output-size"); !strings.HasSuffix(got, "bytes") {
		t.Errorf("size = %q", got)
	}
	if got := b.text("#template-output-time"); !strings.HasSuffix(got, " ms") {
		t.Errorf("run time = %q", got)
	}
	b.shots("41-templates-test")
	b.narrowShots("41-templates-test")
	// At a phone's width the page does not scroll sideways.
	b.viewport(390, 844)
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 391 {
		t.Errorf("the page is %d px wide at 390", w)
	}
	b.viewport(1280, 800)

	// A stale save: the template changes elsewhere, this copy's save says so; Reload.
	var other httpapi.TemplateView
	if s := e.apiJSON(t, "GET", "/api/v1/export-templates/"+id, "", &other); s != 200 {
		t.Fatalf("get: %d", s)
	}
	source := ""
	if other.ScriptSource != nil {
		source = *other.ScriptSource
	}
	changed, _ := json.Marshal("// changed elsewhere\n" + source)
	if s := e.apiJSON(t, "PUT", "/api/v1/export-templates/"+id, `{"scriptSource":`+string(changed)+`,"revision":1}`, &other); s != 200 || other.Revision != 2 {
		t.Fatalf("put: %d, revision %d", s, other.Revision)
	}
	b.run("rename", chromedp.SendKeys(chromedp.CSS("#template-name"), " v2"), click("#template-save"))
	b.run("conflict", chromedp.WaitVisible(chromedp.CSS("#template-conflict")))
	if got := b.text("#template-conflict"); !strings.Contains(got, "changed elsewhere") || !strings.Contains(got, "revision 2") || strings.Contains(got, "409") {
		t.Errorf("conflict = %q", got)
	}
	if id := b.activeID(); id != "template-reload" {
		t.Errorf("focus after a stale save = %q, want template-reload", id)
	}
	b.shots("42-templates-conflict")
	b.narrowShots("42-templates-conflict")
	b.pressOn("#template-reload", kb.Enter)
	b.waitJS("reloaded", `document.getElementById("template-meta").textContent.startsWith("Revision 2.")`)
	if got := eval[string](b, editorText); !strings.HasPrefix(got, "// changed elsewhere") {
		t.Errorf("editor after reload starts %q", got[:min(40, len(got))])
	}
	if got := eval[string](b, `document.getElementById("template-name").value`); got != "Review script" {
		t.Errorf("name after reload = %q", got)
	}
	if !eval[bool](b, `document.getElementById("template-conflict").hidden && document.getElementById("template-dirty").hidden`) {
		t.Error("conflict or unsaved badge still shown after reload")
	}

	// The address names the open template: a reload opens it again.
	if got := eval[string](b, `location.hash`); got != "#/templates/"+id {
		t.Errorf("hash = %q", got)
	}
	b.run("reload page", chromedp.Reload())
	b.waitJS("reopened", `(() => { const m = document.getElementById("template-meta"); return !!m && m.textContent.startsWith("Revision 2."); })()`)
	if got := b.text("#template-editor-h"); got != "Review script" {
		t.Errorf("after a reload the editor holds %q", got)
	}

	// A script that fails as it runs: kind, message, line:column and stack, marked in the editor.
	b.run("open broken", click(`#templates-body tr[data-template-id="`+broken.ID+`"] .template-open`))
	b.waitJS("opened", `document.getElementById("template-editor-h").textContent === "Broken"`)
	b.run("test broken", click("#template-test"), chromedp.WaitVisible(chromedp.CSS("#template-script-error")))
	if got := eval[string](b, `document.getElementById("template-script-error").dataset.kind`); got != "TypeError" {
		t.Errorf("error kind = %q", got)
	}
	if got := b.text("#template-error-where"); !strings.HasPrefix(got, "2:") {
		t.Errorf("error at %q, want line 2", got)
	}
	if got := b.text("#template-error-stack"); !strings.Contains(got, "exportTimeline") || !strings.Contains(got, "template.js:2:") {
		t.Errorf("stack = %q", got)
	}
	if got := b.text("#template-error-message"); got == "" {
		t.Error("no error message")
	}
	b.waitJS("marked on line 2", lintLine+` === 2`)
	// The check as you type runs after a pause (the text was set when the
	// template opened); the run's mark outlives it.
	b.waitJS("the check ran", `Number(document.getElementById("template-source-wrap").dataset.checks) >= 1`)
	if got := eval[int](b, lintLine); got != 2 {
		t.Errorf("after the check ran, the run's error is marked on line %d, want 2", got)
	}
	if got := b.text("#template-problems"); !strings.Contains(got, "Line 2:") || !strings.Contains(got, "TypeError") {
		t.Errorf("problems after the check = %q", got)
	}
	b.run("show in editor", click("#template-error-goto"))
	if id := b.activeID(); id != "template-source" {
		t.Errorf("focus after Show in the editor = %q", id)
	}
	b.shots("43-templates-script-error")
	b.narrowShots("43-templates-script-error")

	// Delete it after a confirmation (keyboard): Escape keeps it.
	b.focusPress("#template-delete", kb.Enter)
	b.run("dialog", chromedp.WaitVisible(chromedp.CSS("#template-delete-dialog")))
	if id := b.activeID(); id != "template-delete-cancel" {
		t.Errorf("focus in dialog = %q", id)
	}
	b.pressOn("#template-delete-cancel", kb.Escape)
	b.run("closed", chromedp.WaitNotVisible(chromedp.CSS("#template-delete-dialog")))
	if id := b.activeID(); id != "template-delete" {
		t.Errorf("focus after Escape = %q", id)
	}
	// At once Delete again, then confirm: the first question's close event
	// may arrive while the second is open, and must not answer it.
	b.pressOn("#template-delete", kb.Enter)
	b.run("dialog again", chromedp.WaitVisible(chromedp.CSS("#template-delete-dialog")))
	b.pressOn("#template-delete-cancel", kb.Tab)
	if id := b.activeID(); id != "template-delete-confirm" {
		t.Fatalf("Tab in the dialog went to %q, want template-delete-confirm", id)
	}
	b.pressOn("#template-delete-confirm", kb.Enter)
	b.waitJS("deleted", `document.querySelectorAll("#templates-body tr[data-template-id]").length === 1 || !document.getElementById("templates-error").hidden`)
	if msg := eval[string](b, `document.getElementById("templates-error").hidden ? "" : document.getElementById("templates-error").textContent`); msg != "" {
		t.Fatalf("delete failed: %s", msg)
	}
	if s := e.apiJSON(t, "GET", "/api/v1/export-templates/"+broken.ID, "", nil); s != 404 {
		t.Errorf("deleted template answers %d", s)
	}
	if id := b.activeID(); id != "templates-h" {
		t.Errorf("focus after delete = %q", id)
	}

	// Keyboard only: a CSV starter, named, saved and tested without the mouse.
	b.run("focus starter", chromedp.Focus(chromedp.CSS("#template-starter")))
	eval[bool](b, `(() => { const s = document.getElementById("template-starter"); s.value = "blank"; s.dispatchEvent(new Event("change")); return true; })()`)
	b.press(kb.ArrowDown)
	if got := eval[string](b, `document.getElementById("template-starter").value`); got != "translators-csv" {
		t.Fatalf("starter after ArrowDown = %q", got)
	}
	b.press(kb.Tab)
	if id := b.activeID(); id != "template-new" {
		t.Fatalf("Tab from the starter went to %q", id)
	}
	b.pressOn("#template-new", kb.Enter)
	b.waitJS("name focused", `document.activeElement && document.activeElement.id === "template-name"`)
	b.run("type name", chromedp.KeyEvent("Translators CSV"))
	var order []string
	for range 3 {
		b.press(kb.Tab)
		order = append(order, b.activeID())
	}
	if strings.Join(order, " ") != "template-filename template-content-type template-source" {
		t.Errorf("Tab order from the name = %v", order)
	}
	// In the editor: type a comment; Tab then leaves the editor for Save.
	b.run("type in editor", chromedp.KeyEvent("/* keyboard */ "))
	b.press(kb.Tab)
	if id := b.activeID(); id != "template-save" {
		t.Errorf("Tab from the editor went to %q, want template-save", id)
	}
	b.run("shift-tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if id := b.activeID(); id != "template-source" {
		t.Errorf("Shift+Tab from Save went to %q, want the editor", id)
	}
	b.press(kb.Tab)
	b.press(kb.Enter)
	b.waitJS("created", `document.getElementById("template-save-status").textContent.includes("created")`)
	if got := eval[string](b, editorText); !strings.HasPrefix(got, "/* keyboard */ // A cue list for translators") {
		t.Errorf("saved text starts %q", got[:min(60, len(got))])
	}
	order = order[:0]
	for range 4 {
		b.press(kb.Tab)
		order = append(order, b.activeID())
	}
	if order[0] != "template-delete" || order[2] != "template-project" || order[3] != "template-test" {
		t.Errorf("Tab order from Save = %v", order)
	}
	b.pressOn("#template-test", kb.Enter)
	b.run("csv output", chromedp.WaitVisible(chromedp.CSS("#template-test-ok")))
	if got := b.text("#template-output"); !strings.Contains(got, "#,Start,End,Duration (s),Speaker,Text,Translation,Notes") || !strings.Contains(got, `2,"00:00:03,500","00:00:06,000",2.500,Marta,Welcome back to the harbour show.,,`) {
		t.Errorf("CSV output = %q", got)
	}
	if got := b.text("#template-output-filename") + " | " + b.text("#template-output-type"); got != "harbour-show-translation.csv | text/csv; charset=utf-8" {
		t.Errorf("CSV file = %q", got)
	}
	if id := b.activeID(); id != "template-test" {
		t.Errorf("focus after the test = %q", id)
	}
	b.shots("44-templates-keyboard")

	// Unsaved edits are not dropped without a question.
	b.run("edit name", chromedp.Focus(chromedp.CSS("#template-name")))
	b.run("type", chromedp.KeyEvent("!"))
	b.focusPress("#template-new", kb.Enter)
	b.run("discard dialog", chromedp.WaitVisible(chromedp.CSS("#template-discard-dialog")))
	if id := b.activeID(); id != "template-discard-cancel" {
		t.Errorf("focus in the discard dialog = %q", id)
	}
	b.pressOn("#template-discard-cancel", kb.Escape)
	b.run("closed", chromedp.WaitNotVisible(chromedp.CSS("#template-discard-dialog")))
	if got := eval[string](b, `document.getElementById("template-name").value`); got != "Translators CSV!" {
		t.Errorf("name after keeping the edits = %q", got)
	}
}

func TestTemplatesNeedsPro(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	tier := account.TierFreePlus
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), ownerEmail, account.AccountUpdate{Tier: &tier}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/templates")
	b.run("gate", chromedp.WaitVisible(chromedp.CSS("#templates-pro")))
	if got := b.text("#templates-pro"); !strings.Contains(got, "Pro") || !strings.Contains(got, "ADVANCED_EXPORTS") || strings.Contains(got, "403") {
		t.Errorf("Pro explanation = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#template-form, #templates-error:not([hidden])").length`); n != 0 {
		t.Error("the page offers the editor, or an error, without Pro")
	}
	b.shots("45-templates-needs-pro")
	b.narrowShots("45-templates-needs-pro")
}

func TestTemplatesRuntimeOff(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.TemplatesOff = true
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
	b := newBrowser(t, ts.URL)
	b.signIn()
	b.open("/#/templates")
	b.run("off", chromedp.WaitVisible(chromedp.CSS("#templates-off")))
	if got := b.text("#templates-off-h"); got != "The template runtime is off on this server" {
		t.Errorf("heading = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#template-form, #templates-error:not([hidden])").length`); n != 0 {
		t.Error("the page offers the editor, or an error, with the runtime off")
	}
	b.shots("46-templates-runtime-off")
}
