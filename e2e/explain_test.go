package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/llm/llmtest"
	"github.com/captionqa/captionqa/backend/server"
)

// planSRT makes an SRT whose plan has work on many cues: every third cue
// overlaps the next, every fourth is read too fast.
func planSRT(n int) string {
	var b strings.Builder
	ms := func(t int) string {
		return fmt.Sprintf("%02d:%02d:%02d,%03d", t/3600000, t/60000%60, t/1000%60, t%1000)
	}
	for i := range n {
		start := i * 3000
		end := start + 2500
		text := fmt.Sprintf("Line %d of the harbour show.", i+1)
		switch {
		case i%3 == 1:
			end = start + 3600 // runs into the next cue
		case i%4 == 3:
			end = start + 700
			text = fmt.Sprintf("Cue %d says a great deal far too quickly for anyone to read it.", i+1)
		}
		fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, ms(start), ms(end), text)
	}
	return b.String()
}

// apiExplain runs the same request through the API with the owner's key;
// it returns the explanation and the delivery's problems as its table
// numbers its rows: report.remaining, then suggestions.
func apiExplain(t *testing.T, e *env, name, body string, fields map[string]string) (explain.Explanation, []caption.Diagnostic) {
	t.Helper()
	fields["includeExplain"] = "true"
	ct, form := multipartForm(t, name, []byte(body), fields)
	status, raw := e.api(t, "POST", "/api/v1/process", ct, form, "")
	if status != 200 {
		t.Fatalf("API process: %d %s", status, raw)
	}
	// The engine's result and the ExplainAI members httpapi's
	// (unexported) processResponse adds.
	var res struct {
		engine.Result
		Explain              *explain.Explanation `json:"explain"`
		ExplainSkippedReason string               `json:"explainSkippedReason"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.Report == nil {
		res.Report = &engine.Report{}
	}
	if res.Explain == nil {
		t.Fatalf("API process with includeExplain has no explain (skipped: %q)", res.ExplainSkippedReason)
	}
	// A step's cues are the delivery's: it highlights the delivery's problems.
	return *res.Explain, append(res.Report.Remaining, res.Suggestions...)
}

// wantHighlight is the problems a step marks: those on its cues of its
// codes, or, when none of them has one of the codes, all on its cues.
func wantHighlight(diags []caption.Diagnostic, cues []int, codes []string) []int {
	var onCues, ofCodes []int
	for i, d := range diags {
		if d.CueIndex == nil || !slices.Contains(cues, *d.CueIndex) {
			continue
		}
		onCues = append(onCues, i)
		if slices.Contains(codes, d.Code) {
			ofCodes = append(ofCodes, i)
		}
	}
	if len(ofCodes) > 0 {
		return ofCodes
	}
	return onCues
}

// domSet reads a JS array of numbers as a sorted, de-duplicated list.
func domSet(b *tab, expr string) []int {
	b.t.Helper()
	v := eval[[]int](b, expr)
	slices.Sort(v)
	return slices.Compact(v)
}

func TestExplainPlanInRunQA(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// The owner is Pro with explain_ai: the option shows, ticked.
	b.run("explain option", chromedp.WaitVisible(chromedp.CSS("#qa-explain")))
	if !eval[bool](b, `document.getElementById("qa-explain").checked`) {
		t.Error("the ExplainAI option is not ticked by default")
	}
	if got := eval[string](b, `document.querySelector('label[for="qa-explain"]').textContent`); got != "Explain the result (ExplainAI)" {
		t.Errorf("option label = %q", got)
	}

	// The choice is remembered while the editor goes elsewhere and back.
	b.run("untick", click("#qa-explain"))
	b.run("account and back", click("#nav-account"), chromedp.WaitVisible(chromedp.CSS("#usage-bar")),
		click("#nav-run"), chromedp.WaitVisible(chromedp.CSS("#qa-explain")))
	if eval[bool](b, `document.getElementById("qa-explain").checked`) {
		t.Error("the unticked ExplainAI option is ticked again after navigating")
	}
	b.run("tick again", click("#qa-explain"))

	const cues = 24
	src := planSRT(cues)
	file := fixture(t, "harbour plan.srt", src)
	b.run("fill form",
		chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}),
		chromedp.SetValue(chromedp.CSS("#qa-preset"), "youtube"),
		chromedp.SetValue(chromedp.CSS("#qa-fix"), "warn-only"),
		chromedp.SetValue(chromedp.CSS("#qa-standard"), "dcmp"),
	)
	eval[bool](b, `["qa-preset","qa-fix","qa-standard"].forEach(id => document.getElementById(id).dispatchEvent(new Event("change"))), true`)
	b.waitJS("file name", `document.getElementById("qa-file-name").textContent.includes("harbour plan.srt")`)
	b.run("run", click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.run("plan card", chromedp.WaitVisible(chromedp.CSS("#explain")))

	want, diags := apiExplain(t, e, "harbour plan.srt", src, map[string]string{"preset": "youtube", "fixProfile": "warn-only", "standard": "dcmp"})
	if want.Status != "actions" || len(want.Actions) == 0 {
		t.Fatalf("the API's plan has status %q and %d actions; the file should need work", want.Status, len(want.Actions))
	}

	// The card comes before the problems and shows the API's plan.
	if !eval[bool](b, `!!(document.getElementById("explain").compareDocumentPosition(document.getElementById("delivery-table")) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Error("the plan card is not before the delivery's problems")
	}
	if got := b.text("#explain-h"); got != "Editorial plan" {
		t.Errorf("card heading = %q", got)
	}
	if got := b.text("#explain-headline"); got != want.Headline {
		t.Errorf("headline = %q, want %q", got, want.Headline)
	}
	ids := eval[[]string](b, `[...document.querySelectorAll("#explain-actions > li")].map(li => li.dataset.action)`)
	var wantIDs []string
	for _, a := range want.Actions {
		wantIDs = append(wantIDs, a.ID)
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("checklist = %v, want %v", ids, wantIDs)
	}
	if n := eval[int](b, `document.querySelectorAll('#explain-actions input[type="checkbox"]').length`); n != len(want.Actions) {
		t.Errorf("%d checkboxes for %d actions", n, len(want.Actions))
	}
	for _, a := range want.Actions {
		got := b.text(fmt.Sprintf(`#explain-actions li[data-action=%q] .explain-action-head`, a.ID))
		if !strings.Contains(got, a.Title) {
			t.Errorf("action %s head = %q, want its title %q", a.ID, got, a.Title)
		}
		tag := map[int]string{1: "Blocking", 2: "Standard", 3: "Suggestion", 4: "Manual review"}[a.Priority]
		if !strings.Contains(got, tag) {
			t.Errorf("action %s head = %q, want the priority tag %q", a.ID, got, tag)
		}
		if label := eval[string](b, fmt.Sprintf(`document.getElementById("explain-done-%s").getAttribute("aria-label")`, a.ID)); label != "Done: "+a.Title {
			t.Errorf("checkbox of %s is labelled %q", a.ID, label)
		}
	}

	// The scores, as figures and meters.
	for _, s := range []struct {
		id   string
		want float64
	}{{"explain-score-upload", want.DeliveryComparison.UploadReadyScore}, {"explain-score-enhanced", want.DeliveryComparison.EnhancedScore}} {
		w := int(math.Round(s.want))
		if got := eval[int](b, fmt.Sprintf(`+document.getElementById(%q).dataset.score`, s.id)); got != w {
			t.Errorf("%s = %d, want %d", s.id, got, w)
		}
		if got := eval[float64](b, fmt.Sprintf(`document.querySelector("#%s meter").value`, s.id)); got != float64(w) {
			t.Errorf("%s meter = %v, want %d", s.id, got, w)
		}
		if got := b.text("#" + s.id + " .score-value"); got != fmt.Sprint(w) {
			t.Errorf("%s figure = %q", s.id, got)
		}
	}
	if want.DeliveryComparison.Summary != "" {
		if got := b.text("#explain-comparison"); got != want.DeliveryComparison.Summary {
			t.Errorf("comparison = %q, want %q", got, want.DeliveryComparison.Summary)
		}
	}
	if got := b.text("#explain-writer"); !strings.HasPrefix(got, "Written by the built-in explainer") {
		t.Errorf("writer line = %q", got)
	}
	if got := eval[string](b, `document.getElementById("explain-client").value`); got != want.ClientSummary {
		t.Errorf("client summary = %q, want %q", got, want.ClientSummary)
	}
	b.shots("70-explain-plan")
	// shots resizes the page: let the layout settle at 1280 px first.
	b.waitJS("1280 px layout", `innerWidth === 1280`)

	// Choosing a step whose cues have other findings too highlights
	// exactly its own findings' rows and markers and its cues, and shows
	// the first cue.
	pick := -1
	for i, a := range want.Actions {
		if w := wantHighlight(diags, a.CueIndexes, a.Codes); len(w) > 0 && len(w) < len(wantHighlight(diags, a.CueIndexes, nil)) {
			pick = i
			break
		}
	}
	if pick < 0 {
		t.Fatal("no step has findings on its cues besides its own: the fixture should give one")
	}
	act := want.Actions[pick]
	wantRows := wantHighlight(diags, act.CueIndexes, act.Codes)
	btn := "#explain-title-" + act.ID
	b.run("choose action", click(btn))
	b.waitJS("cue detail of the action", fmt.Sprintf(`(document.getElementById("cue-detail-title")||{}).textContent === "Cue %d"`, act.CueIndexes[0]+1))
	if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-pressed")`, btn)); got != "true" {
		t.Errorf("chosen action aria-pressed = %q", got)
	}
	actCues := slices.Clone(act.CueIndexes)
	slices.Sort(actCues)
	if got := domSet(b, `[...document.querySelectorAll("#delivery-body tr.highlighted")].map(r => +r.dataset.diag)`); !slices.Equal(got, wantRows) {
		t.Errorf("highlighted rows of the delivery's problems = %v, want %v (step %s: cues %v, codes %v)", got, wantRows, act.ID, act.CueIndexes, act.Codes)
	}
	var wantMarkers []string
	for _, i := range wantRows {
		wantMarkers = append(wantMarkers, fmt.Sprintf("%d:%s", *diags[i].CueIndex, diags[i].Code))
	}
	slices.Sort(wantMarkers)
	gotMarkers := eval[[]string](b, `[...document.querySelectorAll("#timeline .marker.highlighted")].map(m => m.dataset.cue + ":" + m.dataset.code).sort()`)
	if !slices.Equal(gotMarkers, wantMarkers) {
		t.Errorf("highlighted timeline markers = %v, want %v", gotMarkers, wantMarkers)
	}
	var inFile []int
	for _, c := range actCues {
		if c < cues {
			inFile = append(inFile, c)
		}
	}
	if got := domSet(b, `[...document.querySelectorAll("#timeline rect.cue.highlighted")].map(r => +r.dataset.cue)`); !slices.Equal(got, inFile) {
		t.Errorf("highlighted timeline cues = %v, want %v", got, inFile)
	}
	if eval[bool](b, `document.getElementById("timeline-legend-highlight").hidden`) {
		t.Error("the timeline legend does not explain the highlight")
	}
	checkLegend(t, b)
	if !eval[bool](b, fmt.Sprintf(`document.querySelector('#timeline rect.cue[data-cue="%d"]').classList.contains("selected")`, act.CueIndexes[0])) {
		t.Error("the action's first cue is not selected on the timeline")
	}
	// The first highlighted row was scrolled into view.
	if !eval[bool](b, `(r => { if (!r) return false; const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; })(document.querySelector("#delivery-body tr.highlighted"))`) {
		t.Errorf("the first highlighted row is not in view: %s", eval[string](b, `JSON.stringify([innerWidth, innerHeight, scrollY, document.querySelector("#delivery-body tr.highlighted").getBoundingClientRect()])`))
	}
	b.shots("71-explain-chosen")

	// By keyboard: Enter on the chosen step again clears the highlight.
	b.focusPress(btn, kb.Enter)
	b.waitJS("highlight cleared", `document.querySelectorAll("#delivery-body tr.highlighted, #timeline .highlighted").length === 0`)
	if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-pressed")`, btn)); got != "false" {
		t.Errorf("aria-pressed after a second Enter = %q", got)
	}
	b.press(kb.Enter)
	b.waitJS("highlight again", `document.querySelectorAll("#delivery-body tr.highlighted").length > 0`)

	// Ticking a step is kept while the editor goes elsewhere and back.
	first := want.Actions[0].ID
	b.run("tick", click("#explain-done-"+first))
	b.waitJS("ticked", fmt.Sprintf(`document.querySelector('#explain-actions li[data-action=%q]').classList.contains("done")`, first))
	if got := b.text("#explain-progress"); !strings.HasPrefix(got, fmt.Sprintf("1 of %d step", len(want.Actions))) {
		t.Errorf("progress = %q", got)
	}
	b.run("account and back", click("#nav-account"), chromedp.WaitVisible(chromedp.CSS("#usage-bar")),
		click("#nav-run"), chromedp.WaitVisible(chromedp.CSS("#explain")))
	if !eval[bool](b, fmt.Sprintf(`document.getElementById("explain-done-%s").checked`, first)) {
		t.Error("the ticked step is unticked after navigating away and back")
	}
	if n := eval[int](b, `document.querySelectorAll("#delivery-body tr.highlighted").length`); n == 0 {
		t.Error("the chosen step lost its highlight after navigating away and back")
	}

	// Copy puts the client summary on the clipboard and says so.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		_, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: e.ts.URL, BrowserContextID: b.browserContext()})
		cancel()
		if err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}
	b.run("copy", click("#explain-copy"))
	b.waitJS("copy status", `document.getElementById("explain-copy-status").textContent !== ""`)
	if got := b.text("#explain-copy-status"); got != "Copied." {
		t.Errorf("copy status = %q, want Copied.", got)
	}
	if got := b.text("#live"); !strings.HasPrefix(got, "Copied") {
		t.Errorf("live region after copy = %q", got)
	}
	if got := eval[string](b, `navigator.clipboard.readText()`); got != want.ClientSummary {
		t.Errorf("clipboard = %q, want the client summary %q", got, want.ClientSummary)
	}

	// Nothing in the card is wider than the page at either width.
	for _, w := range []int64{1280, 800} {
		b.viewport(w, 900)
		b.waitJS("layout", fmt.Sprintf(`innerWidth === %d`, w))
		if over := eval[[]string](b, `[document.getElementById("explain"), ...document.querySelectorAll("#explain *")].filter(el => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible" && el.clientWidth > 0).map(el => el.id || el.className || el.tagName)`); len(over) != 0 {
			t.Errorf("at %d px these overflow their box: %v", w, over)
		}
		if got := eval[bool](b, `document.documentElement.scrollWidth <= innerWidth`); !got {
			t.Errorf("at %d px the page scrolls sideways", w)
		}
	}
	b.viewport(1280, 800)
}

func TestExplainGatedAndSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	ctx := context.Background()
	b := newBrowser(t, e.ts.URL)

	// Signed out, the converter never offers ExplainAI.
	b.open("/")
	b.run("quick converter", chromedp.WaitVisible(chromedp.CSS("#quick-section #qa-form")))
	b.signIn()
	b.run("explain option", chromedp.WaitVisible(chromedp.CSS("#qa-explain")))

	// The entitlement goes while the page is open: the server says why
	// there is no plan.
	without := func(drop string) {
		t.Helper()
		acct, err := e.srv.Accounts().AccountByEmail(ctx, ownerEmail)
		if err != nil {
			t.Fatal(err)
		}
		feats := slices.DeleteFunc(slices.Clone(acct.Features), func(f string) bool { return f == drop })
		if _, err := e.srv.Accounts().UpdateAccount(ctx, ownerEmail, account.AccountUpdate{Features: &feats}); err != nil {
			t.Fatal(err)
		}
	}
	without(account.FeatureExplainAI)
	file := fixture(t, "gated.srt", planSRT(8))
	b.run("run", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}), click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.run("notice", chromedp.WaitVisible(chromedp.CSS("#explain-skipped")))
	if got := b.text("#explain-skipped"); !strings.Contains(got, "ExplainAI needs a Pro workspace with the ExplainAI entitlement.") {
		t.Errorf("not_entitled notice = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#explain").length`); n != 0 {
		t.Error("a plan card without the entitlement")
	}

	// Signed in again without the entitlement, the option is not offered
	// and a run asks for no plan.
	b.run("sign out", click("#sign-out"), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	if n := eval[int](b, `document.querySelectorAll("#qa-explain").length`); n != 0 {
		t.Error("the signed-out converter offers ExplainAI")
	}
	b.signIn()
	b.run("run page", chromedp.WaitVisible(chromedp.CSS("#qa-form")))
	// The option would come with the account's features: wait for them.
	b.waitJS("features read", `document.getElementById("qa-explain-slot").dataset.offered === "false"`)
	b.run("run", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}), click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
	if n := eval[int](b, `document.querySelectorAll("#qa-explain, #explain, #explain-skipped").length`); n != 0 {
		t.Errorf("without explain_ai: %d ExplainAI elements", n)
	}
}

// TestExplainServerStates runs QA with the option ticked on servers set up
// differently: the notice or the writer line says what happened.
func TestExplainServerStates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mod  func(t *testing.T, c *server.Config)
		// runs before the checked one, which shows notice or writer.
		before int
		notice string
		writer string
	}{
		{
			name:   "turned off",
			mod:    func(_ *testing.T, c *server.Config) { c.ExplainOff = true },
			notice: "ExplainAI is turned off on this server (serve --explain off).",
		},
		{
			name:   "allowance used up",
			mod:    func(_ *testing.T, c *server.Config) { c.ExplainDailyCap = 1 },
			before: 1,
			notice: "Today's ExplainAI allowance is used up; it resets at midnight UTC.",
		},
		{
			name: "model writes",
			mod: func(t *testing.T, c *server.Config) {
				c.ExplainEndpoint, c.ExplainModel = llmtest.New(t, llmtest.Behaviour{}).URL, "harbour-7b"
			},
			writer: "Written by harbour-7b.",
		},
		{
			name: "model answers garbage",
			mod: func(t *testing.T, c *server.Config) {
				c.ExplainEndpoint, c.ExplainModel = llmtest.New(t, llmtest.Behaviour{Content: "Sure! Here is the plan."}).URL, "harbour-7b"
			},
			writer: "Written by the built-in explainer; the model's text was not used: the model's answer was not in the form asked for.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnvWith(t, false, func(c *server.Config) { tt.mod(t, c) })
			b := newBrowser(t, e.ts.URL)
			b.signIn()
			// Entitled: the option shows whatever the server's settings.
			b.run("explain option", chromedp.WaitVisible(chromedp.CSS("#qa-explain")))
			file := fixture(t, "states.srt", planSRT(8))
			b.run("file", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}))
			for i := range tt.before + 1 {
				// Each run replaces the result: wait for the new one.
				eval[bool](b, `(r => (r && r.remove(), true))(document.getElementById("result"))`)
				b.run(fmt.Sprintf("run %d", i+1), click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
			}
			if tt.notice != "" {
				b.run("notice", chromedp.WaitVisible(chromedp.CSS("#explain-skipped")))
				if got := b.text("#explain-skipped"); !strings.HasSuffix(got, tt.notice) {
					t.Errorf("notice = %q, want it to end %q", got, tt.notice)
				}
				if n := eval[int](b, `document.querySelectorAll("#explain").length`); n != 0 {
					t.Error("a plan card next to the notice")
				}
				b.shots("72-explain-notice-" + strings.ReplaceAll(tt.name, " ", "-"))
				return
			}
			b.run("plan", chromedp.WaitVisible(chromedp.CSS("#explain")))
			if got := b.text("#explain-writer"); got != tt.writer {
				t.Errorf("writer line = %q, want %q", got, tt.writer)
			}
			if n := eval[int](b, `document.querySelectorAll("#explain-actions > li").length`); n == 0 {
				t.Error("no actions in the plan")
			}
		})
	}
}
