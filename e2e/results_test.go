package e2e

// The Run QA result view (issue 19): the delivery's problems first, with
// the delivery's cue numbers and values, then the aided output's, then
// the uploaded file's findings; impact and "Blocks delivery" as separate
// tags; CaptionQA's own changes apart from the problems; the timeline's
// Source | Delivery switch and a legend that names what it draws; failed
// clauses with their first findings linked to cues; and a layout that
// fits 800 px.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

// apiProcess runs the request through the API with the owner's key.
func apiProcess(t *testing.T, e *env, name, body string, fields map[string]string) engine.Result {
	t.Helper()
	ct, form := multipartForm(t, name, []byte(body), fields)
	status, raw := e.api(t, "POST", "/api/v1/process", ct, form, "")
	if status != 200 {
		t.Fatalf("API process: %d %s", status, raw)
	}
	var res engine.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.Report == nil {
		res.Report = &engine.Report{}
	}
	return res
}

// runQA runs a file through the Run QA form and waits for its result.
func runQA(t *testing.T, b *tab, name, body, preset, fix, std string) {
	t.Helper()
	file := fixture(t, name, body)
	eval[bool](b, `(r => (r && r.remove(), true))(document.getElementById("result"))`)
	b.run("fill form",
		chromedp.WaitVisible(chromedp.CSS("#qa-form")),
		chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}),
		chromedp.SetValue(chromedp.CSS("#qa-preset"), preset),
		chromedp.SetValue(chromedp.CSS("#qa-fix"), fix),
		chromedp.SetValue(chromedp.CSS("#qa-standard"), std),
	)
	eval[bool](b, `["qa-preset","qa-fix","qa-standard"].forEach(id => document.getElementById(id).dispatchEvent(new Event("change"))), true`)
	b.waitJS("file name", fmt.Sprintf(`document.getElementById("qa-file-name").textContent.includes(%q)`, name))
	b.run("run", click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
}

// wantImpact is the documented impact (ui/labels.ts impactOf), written
// again here so the two can disagree.
func wantImpact(d caption.Diagnostic) string {
	ratio := math.NaN()
	if d.Value != nil && d.Limit != nil && *d.Limit > 0 {
		ratio = *d.Value / *d.Limit
	}
	switch d.Code {
	case "reading_speed_high", "presentation_rate_high", "line_too_long":
		switch {
		case math.IsNaN(ratio):
			return "medium"
		case ratio >= 1.5:
			return "high"
		case ratio >= 1.2:
			return "medium"
		}
		return "low"
	case "too_many_lines":
		if d.Value != nil && d.Limit != nil && *d.Value-*d.Limit >= 2 {
			return "high"
		}
		return "medium"
	case "duration_too_short":
		switch {
		case math.IsNaN(ratio):
			return "medium"
		case ratio < 0.5:
			return "high"
		case ratio < 0.75:
			return "medium"
		}
		return "low"
	case "overlapping_cues", "cues_out_of_order", "empty_input", "no_cues":
		return "high"
	case "position_out_of_bounds":
		return "medium"
	case "invalid_markup":
		if d.Severity == "error" {
			return "medium"
		}
		return "low"
	case "invalid_timestamp", "end_before_start", "malformed_block", "invalid_document", "content_not_displayed",
		"unsupported_feature", "invalid_counter", "invalid_setting":
		switch {
		case d.Severity == "error":
			return "high"
		case d.Code == "content_not_displayed":
			return "medium"
		}
		return "low"
	case "gap_too_small", "line_unbalanced", "duration_too_long", "missing_language_tag", "empty_cue", "strip_styling",
		"encoding_not_utf8", "missing_webvtt_header", "non_standard_syntax", "control_character", "whitespace":
		return "low"
	}
	if d.Severity == "error" {
		return "medium"
	}
	return "low"
}

var (
	sevRank    = map[caption.Severity]int{"error": 0, "warning": 1, "info": 2}
	impactRank = map[string]int{"high": 0, "medium": 1, "low": 2}
)

// diagKey names a finding as a row or marker shows it.
func diagKey(d caption.Diagnostic) string {
	cue := -1
	if d.CueIndex != nil {
		cue = *d.CueIndex
	}
	return fmt.Sprintf("%d:%s", cue, d.Code)
}

func keys(ds []caption.Diagnostic) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, diagKey(d))
	}
	return out
}

// rowsOf reads a table's rows in their order: cue, code, impact, delivery tag, value cell.
type domRow struct {
	Cue    string `json:"cue"`
	Code   string `json:"code"`
	Impact string `json:"impact"`
	Tag    string `json:"tag"`
	Num    string `json:"num"`
	Value  string `json:"value"`
}

func rowsOf(b *tab, body string) []domRow {
	b.t.Helper()
	return eval[[]domRow](b, fmt.Sprintf(`[...document.querySelectorAll("#%s tr[data-code]")].map(r => ({
		cue: r.dataset.cue ?? "", code: r.dataset.code, impact: (r.querySelector(".impact")||{}).dataset?.impact ?? "",
		tag: r.cells[1].textContent.trim(), num: r.cells[3].textContent.trim(), value: r.cells[r.cells.length-1].textContent.replace(/\u00a0/g, " ").trim()}))`, body))
}

func valueCell(d caption.Diagnostic) string {
	n := func(v float64) string {
		if v == math.Trunc(v) {
			return fmt.Sprint(int64(v))
		}
		return fmt.Sprintf("%.1f", v)
	}
	u := ""
	if d.Unit != "" {
		u = " " + d.Unit
	}
	switch {
	case d.Value == nil && d.Limit == nil:
		return "—"
	case d.Limit == nil:
		return n(*d.Value) + u
	case d.Value == nil:
		return "limit " + n(*d.Limit) + u
	}
	return n(*d.Value) + " / " + n(*d.Limit) + u
}

// before reports whether the element a comes before b in the page.
func before(b *tab, a, c string) bool {
	return eval[bool](b, fmt.Sprintf(`!!(document.querySelector(%q).compareDocumentPosition(document.querySelector(%q)) & Node.DOCUMENT_POSITION_FOLLOWING)`, a, c))
}

func TestResultsDeliveryProblemsFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	fields := map[string]string{"preset": "generic", "fixProfile": "auto-split-cps", "standard": "fcc-79.1"}
	runQA(t, b, "harbour show.srt", problemSRT, "generic", "auto-split-cps", "fcc-79.1")
	want := apiProcess(t, e, "harbour show.srt", problemSRT, fields)
	if len(want.Report.Remaining) == 0 || len(want.Suggestions) == 0 {
		t.Fatalf("the fixture should leave problems and suggestions in the delivery: %d, %d", len(want.Report.Remaining), len(want.Suggestions))
	}

	// The order of the sections.
	order := []string{"#delivery-problems", "#tl", "#cue", "#source-findings", "#changes", "#clauses-s", "#output-s"}
	if !want.AidedSameAsDelivery {
		order = slices.Insert(order, 1, "#aided-problems")
	}
	for i := 1; i < len(order); i++ {
		if !before(b, order[i-1], order[i]) {
			t.Errorf("%s is not before %s", order[i-1], order[i])
		}
	}

	// The delivery's problems: remaining, then suggestions (each by
	// impact, high first), with the delivery's cue numbers and values.
	delivery := append(slices.Clone(want.Report.Remaining), want.Suggestions...)
	slices.SortStableFunc(delivery, func(a, c caption.Diagnostic) int {
		return cmp.Or(cmp.Compare(sevRank[a.Severity], sevRank[c.Severity]), cmp.Compare(impactRank[wantImpact(a)], impactRank[wantImpact(c)]))
	})
	if got, w := b.text("#delivery-problems-h"), fmt.Sprintf("Problems in the delivery (%d)", len(delivery)); got != w {
		t.Errorf("delivery heading = %q, want %q", got, w)
	}
	rows := rowsOf(b, "delivery-body")
	if len(rows) != len(delivery) {
		t.Fatalf("delivery rows = %d, want %d", len(rows), len(delivery))
	}
	for i, d := range delivery {
		r := rows[i]
		if r.Code != d.Code || r.Cue != fmt.Sprint(*d.CueIndex) {
			t.Errorf("delivery row %d = cue %s %s, want cue %d %s", i, r.Cue, r.Code, *d.CueIndex, d.Code)
		}
		if r.Num != fmt.Sprintf("#%d", *d.CueIndex+1) {
			t.Errorf("delivery row %d shows cue %q, want #%d", i, r.Num, *d.CueIndex+1)
		}
		if w := valueCell(d); r.Value != w {
			t.Errorf("delivery row %d value = %q, want the delivery's %q", i, r.Value, w)
		}
		if w := wantImpact(d); r.Impact != w {
			t.Errorf("delivery row %d (%s %v/%v) impact = %q, want %q", i, d.Code, *d.Value, *d.Limit, r.Impact, w)
		}
		wantTag := map[caption.Severity]string{"error": "Blocks delivery", "warning": "Suggestion"}[d.Severity]
		if !strings.Contains(r.Tag, wantTag) {
			t.Errorf("delivery row %d delivery tag = %q, want %q", i, r.Tag, wantTag)
		}
	}
	// The input's pre-fix value of the same rule is not what the delivery shows.
	in := want.Report.Diagnostics[slices.IndexFunc(want.Report.Diagnostics, func(d caption.Diagnostic) bool { return d.Code == "reading_speed_high" })]
	if rows[0].Value == valueCell(in) {
		t.Errorf("the delivery's first row shows the uploaded file's value %q", rows[0].Value)
	}
	if got := b.text("#delivery-intro"); !strings.Contains(got, fmt.Sprintf("%d problems block delivery", len(want.Report.Remaining))) {
		t.Errorf("delivery intro = %q", got)
	}

	// Impact and "Blocks delivery" are two tags, coloured apart: high red,
	// medium amber, low grey; the blocking tag is neither.
	colours := eval[map[string]string](b, `Object.fromEntries([...document.querySelectorAll("#result .impact")].map(el => [el.dataset.impact, getComputedStyle(el.querySelector(".impact-bars i:first-child")).backgroundColor]))`)
	for imp, rgb := range map[string]string{"high": "rgb(207, 34, 46)", "medium": "rgb(191, 135, 0)", "low": "rgb(140, 149, 159)"} {
		if got, ok := colours[imp]; ok && got != rgb {
			t.Errorf("%s impact bars are %s, want %s", imp, got, rgb)
		}
	}
	if len(colours) < 2 {
		t.Errorf("the fixture should show at least two impacts; got %v", colours)
	}
	if n := eval[int](b, `document.querySelectorAll("#delivery-body .blocks").length`); n != len(want.Report.Remaining) {
		t.Errorf("%d Blocks delivery tags in the delivery table, want %d", n, len(want.Report.Remaining))
	}
	// Sorting by impact puts high first.
	b.run("sort by impact", click(`#delivery-table button.sort[data-sort="impact"]`))
	imps := eval[[]string](b, `[...document.querySelectorAll("#delivery-body tr[data-code]")].map(r => r.dataset.impact)`)
	if !slices.IsSortedFunc(imps, func(a, c string) int { return impactRank[a] - impactRank[c] }) {
		t.Errorf("sorted by impact: %v", imps)
	}
	b.run("filter high", chromedp.SetValue(chromedp.CSS("#delivery-filter-impact"), "high"))
	eval[bool](b, `document.getElementById("delivery-filter-impact").dispatchEvent(new Event("change")), true`)
	if got := eval[[]string](b, `[...new Set([...document.querySelectorAll("#delivery-body tr[data-code]")].map(r => r.dataset.impact))]`); !slices.Equal(got, []string{"high"}) {
		t.Errorf("impact filter high shows %v", got)
	}

	// The uploaded file's findings come after, without strip_styling,
	// which is among the changes only.
	var source []caption.Diagnostic
	strips := 0
	for _, d := range want.Report.Diagnostics {
		if d.Code == "strip_styling" {
			strips++
			continue
		}
		source = append(source, d)
	}
	if strips == 0 {
		t.Fatal("the fixture should have styling to strip")
	}
	// By impact, then blocking first.
	slices.SortStableFunc(source, func(a, c caption.Diagnostic) int {
		return cmp.Or(cmp.Compare(impactRank[wantImpact(a)], impactRank[wantImpact(c)]), cmp.Compare(sevRank[a.Severity], sevRank[c.Severity]))
	})
	srows := rowsOf(b, "diag-body")
	if len(srows) != len(source) {
		t.Errorf("uploaded file rows = %d, want %d (diagnostics without strip_styling)", len(srows), len(source))
	}
	for i, r := range srows {
		if i < len(source) && (r.Impact != wantImpact(source[i]) || r.Code != source[i].Code || r.Cue != fmt.Sprint(*source[i].CueIndex) || r.Value != valueCell(source[i])) {
			t.Errorf("source row %d = %+v, want %s on cue %d (%s), impact %q", i, r, source[i].Code, *source[i].CueIndex, valueCell(source[i]), wantImpact(source[i]))
		}
	}
	if got := b.text("#source-findings-h"); got != fmt.Sprintf("Found in the uploaded file (%d)", len(source)) {
		t.Errorf("source heading = %q", got)
	}
	if got := b.text("#source-intro"); !strings.Contains(got, "styling removals are listed under Changes CaptionQA made") {
		t.Errorf("source intro = %q", got)
	}
	if outside := eval[int](b, `[...document.querySelectorAll('#result [data-code="strip_styling"]')].filter(el => !el.closest("#changes")).length`); outside != 0 {
		t.Errorf("%d strip_styling elements outside Changes CaptionQA made", outside)
	}
	b.run("source timeline", click("#tl-view-source"))
	if n := eval[int](b, `document.querySelectorAll('#timeline .marker[data-code="strip_styling"]').length`); n != 0 {
		t.Errorf("%d strip_styling markers on the source timeline", n)
	}

	// Changes: grouped by what was done, every fix once, with cue links.
	groups := eval[[]string](b, `[...document.querySelectorAll("#changes .change-group")].map(g => g.dataset.action)`)
	var wantGroups []string
	strip := 0
	for _, f := range want.Report.Fixes {
		if !slices.Contains(wantGroups, f.Action) {
			wantGroups = append(wantGroups, f.Action)
		}
		if f.Action == "strip" {
			strip++
		}
	}
	if !slices.Equal(groups, wantGroups) {
		t.Errorf("change groups = %v, want %v", groups, wantGroups)
	}
	if n := eval[int](b, `document.querySelectorAll("#changes li[data-code]").length`); n != len(want.Report.Fixes) {
		t.Errorf("%d changes listed, want %d", n, len(want.Report.Fixes))
	}
	if n := eval[int](b, `document.querySelectorAll('#changes .change-group[data-action="strip"] li').length`); n != strip {
		t.Errorf("%d styling removals, want %d", n, strip)
	}
	if got := b.text(`#changes .change-group[data-action="strip"] h4`); !strings.HasPrefix(got, "Styling or placement removed") {
		t.Errorf("strip group heading = %q", got)
	}
	// A change's cue link shows that cue of the uploaded file.
	b.run("change link", click(`#changes .change-group[data-action="split"] button.cue-link`))
	b.waitJS("source cue 2", `document.getElementById("cue-detail-title").textContent === "Cue 2" && document.getElementById("cue-detail-where").dataset.space === "source"`)
	if got := b.text("#cue-detail-times"); !strings.HasPrefix(got, "00:03.400 → 00:05.000") {
		t.Errorf("source cue 2 times = %q", got)
	}
	if got := b.text("#cue-detail-changes"); !strings.Contains(got, "split into 2 cues") {
		t.Errorf("the cue detail does not list the changes to the cue: %q", got)
	}
	if got := eval[string](b, `document.activeElement.id`); got != "cue-detail" {
		t.Errorf("focus after a cue link = %q, want cue-detail", got)
	}
	b.shots("r1-delivery-first")
}

func TestResultsEmptyDelivery(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	const clean = "1\n00:00:01,000 --> 00:00:03,500\nA calm harbour.\n\n2\n00:00:04,000 --> 00:00:06,500\nThe ferry is on time.\n"
	runQA(t, b, "calm.srt", clean, "generic", "warn-only", "")
	want := apiProcess(t, e, "calm.srt", clean, map[string]string{"preset": "generic", "fixProfile": "warn-only"})
	if len(want.Report.Remaining)+len(want.Suggestions) != 0 {
		t.Fatalf("the clean fixture has problems: %+v %+v", want.Report.Remaining, want.Suggestions)
	}
	if got := b.text("#delivery-clear"); !strings.HasSuffix(got, "None: the delivery meets every rule Generic (SRT) enforces, and CaptionQA has no suggestions for it.") {
		t.Errorf("empty state = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#delivery-problems table").length`); n != 0 {
		t.Error("an empty delivery shows a table")
	}
	if got := b.text("#changes"); !strings.Contains(got, "None: CaptionQA changed nothing.") {
		t.Errorf("changes = %q", got)
	}
}

func TestResultsTimelineSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	runQA(t, b, "harbour show.srt", problemSRT, "generic", "auto-split-cps", "fcc-79.1")
	want := apiProcess(t, e, "harbour show.srt", problemSRT, map[string]string{"preset": "generic", "fixProfile": "auto-split-cps", "standard": "fcc-79.1"})
	cues := func() int { return eval[int](b, `document.querySelectorAll("#timeline rect.cue").length`) }
	title := func(i int) string {
		return eval[string](b, fmt.Sprintf(`document.querySelector('#timeline rect.cue[data-cue="%d"] title').textContent`, i))
	}
	markers := func() []string {
		v := eval[[]string](b, `[...document.querySelectorAll("#timeline .marker")].map(m => m.dataset.cue + ":" + m.dataset.code)`)
		slices.Sort(v)
		return v
	}

	// The delivery first: its cues, times and problems.
	if got := eval[string](b, `document.getElementById("tl-view-delivery").getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("the timeline does not start on the delivery (aria-pressed %q)", got)
	}
	if n := cues(); n != want.Report.OutputCues {
		t.Errorf("delivery timeline cues = %d, want %d", n, want.Report.OutputCues)
	}
	if got := title(1); got != "Cue 2: 00:03.200 → 00:03.833" {
		t.Errorf("delivery cue 2 = %q", got)
	}
	if got, w := markers(), sortedKeys(append(slices.Clone(want.Report.Remaining), want.Suggestions...)); !slices.Equal(got, w) {
		t.Errorf("delivery markers = %v, want %v", got, w)
	}
	if got := b.text("#tl-view-delivery"); got != fmt.Sprintf("Delivery · %d cues", want.Report.OutputCues) {
		t.Errorf("delivery switch = %q", got)
	}

	// Source: the uploaded file's cues, times and findings.
	b.run("source", click("#tl-view-source"))
	if n := cues(); n != want.Report.InputCues {
		t.Errorf("source timeline cues = %d, want %d", n, want.Report.InputCues)
	}
	if got := title(1); got != "Cue 2: 00:03.400 → 00:05.000" {
		t.Errorf("source cue 2 = %q", got)
	}
	var source []caption.Diagnostic
	for _, d := range want.Report.Diagnostics {
		if d.Code != "strip_styling" {
			source = append(source, d)
		}
	}
	if got, w := markers(), sortedKeys(source); !slices.Equal(got, w) {
		t.Errorf("source markers = %v, want %v", got, w)
	}
	if got := eval[string](b, `document.getElementById("tl-view-source").getAttribute("aria-pressed") + document.getElementById("tl-view-delivery").getAttribute("aria-pressed")`); got != "truefalse" {
		t.Errorf("aria-pressed source+delivery = %s", got)
	}

	// A row of the delivery's table shows the delivery's cue, and the
	// timeline follows.
	b.run("delivery row", click(`#delivery-body tr[data-cue="2"]`))
	b.waitJS("delivery cue 3", `document.getElementById("cue-detail-title").textContent === "Cue 3" && document.getElementById("cue-detail-where").dataset.space === "delivery"`)
	if got := b.text("#cue-detail-text"); !strings.Contains(got, "the night ferries") {
		t.Errorf("delivery cue 3 text = %q", got)
	}
	if n := cues(); n != want.Report.OutputCues {
		t.Errorf("after a delivery row the timeline shows %d cues, want the delivery's %d", n, want.Report.OutputCues)
	}
	if !eval[bool](b, `document.querySelector('#timeline rect.cue[data-cue="2"]').classList.contains("selected")`) {
		t.Error("the delivery's cue 3 is not selected on the timeline")
	}
	// A row of the uploaded file's table shows its cue, on the source timeline.
	b.run("source row", click(`#diag-body tr[data-cue="3"]`))
	b.waitJS("source cue 4", `document.getElementById("cue-detail-title").textContent === "Cue 4" && document.getElementById("cue-detail-where").dataset.space === "source"`)
	if n := cues(); n != want.Report.InputCues {
		t.Errorf("after a source row the timeline shows %d cues, want %d", n, want.Report.InputCues)
	}

	// The legend names what is drawn, with the markers' own colours and
	// shapes; the last tick (at the end of the file) is not cut off.
	checkLegend(t, b)
	b.run("delivery", click("#tl-view-delivery"))
	checkLegend(t, b)
	for _, w := range []int64{1280, 800} {
		b.viewport(w, 900)
		b.waitJS("layout", fmt.Sprintf(`innerWidth === %d`, w))
		for _, v := range []string{"source", "delivery"} {
			b.run("view", click("#tl-view-"+v))
			checkTimelineFits(t, b)
		}
	}
	b.viewport(1280, 800)
	b.shots("r2-timeline-delivery")
}

// checkTimelineFits checks the shown timeline at the page's width: it does
// not scroll sideways, every tick label is inside it, and so is its legend.
func checkTimelineFits(t *testing.T, b *tab) {
	t.Helper()
	var problems []string
	raw := eval[string](b, `JSON.stringify((() => {
		const out = [];
		const svg = document.getElementById("timeline");
		const scroll = svg.closest(".timeline-scroll");
		if (scroll.scrollWidth > scroll.clientWidth) out.push("the timeline scrolls: " + scroll.scrollWidth + " > " + scroll.clientWidth);
		const box = svg.getBoundingClientRect();
		const ticks = svg.querySelectorAll("text.tick");
		if (!ticks.length) out.push("no tick labels");
		for (const t of ticks) {
			const r = t.getBoundingClientRect();
			if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push("tick " + t.textContent + " is clipped: " + r.left + "-" + r.right + " in " + box.left + "-" + box.right);
		}
		const legend = svg.closest(".timeline-wrap").querySelector(".legend");
		for (const li of legend.children) {
			const r = li.getBoundingClientRect();
			if (!li.hidden && r.right > legend.getBoundingClientRect().right + 0.5) out.push("legend entry " + li.dataset.key + " overflows");
		}
		return out;
	})())`)
	if err := json.Unmarshal([]byte(raw), &problems); err != nil {
		t.Fatal(err)
	}
	w := eval[int](b, `innerWidth`)
	view := eval[string](b, `document.getElementById("timeline-view").dataset.space`)
	for _, p := range problems {
		t.Errorf("at %d px, %s timeline: %s", w, view, p)
	}
}

// checkLegend compares the timeline's markers and cues with its legend's keys.
func checkLegend(t *testing.T, b *tab) {
	t.Helper()
	var got struct {
		Problems []string `json:"problems"`
		Keys     []string `json:"keys"`
	}
	raw := eval[string](b, `JSON.stringify((() => {
		const fill = el => getComputedStyle(el).fill;
		const problems = [];
		const legend = [...document.querySelectorAll(".timeline-wrap .legend li:not([hidden])")];
		const key = k => legend.find(li => li.dataset.key === k);
		for (const m of document.querySelectorAll("#timeline .marker")) {
			const shape = m.querySelector("rect, polygon, circle");
			const ik = key("impact-" + m.dataset.impact);
			if (!ik) problems.push("no key for impact " + m.dataset.impact);
			else if (fill(ik.querySelector("g > *")) !== fill(shape)) problems.push("impact " + m.dataset.impact + ": key " + fill(ik.querySelector("g > *")) + ", marker " + fill(shape));
			const sk = key("shape-" + m.dataset.severity);
			const ks = sk && sk.querySelector("g > *");
			if (!ks) problems.push("no key for the shape of " + m.dataset.severity);
			else if (ks.tagName !== shape.tagName || ks.hasAttribute("transform") !== shape.hasAttribute("transform")) problems.push("shape of " + m.dataset.severity + ": key " + ks.tagName + ", marker " + shape.tagName);
		}
		const cue = document.querySelector("#timeline rect.cue:not(.selected):not(.highlighted)");
		if (cue && fill(key("cue").querySelector("rect")) !== fill(cue)) problems.push("cue key " + fill(key("cue").querySelector("rect")) + ", cue " + fill(cue));
		const sel = document.querySelector("#timeline rect.cue.selected:not(.highlighted)");
		if (sel && fill(key("selected").querySelector("rect")) !== fill(sel)) problems.push("selected key differs");
		const hl = document.querySelector("#timeline rect.cue.highlighted:not(.selected)");
		if (hl && (!key("highlight") || fill(key("highlight").querySelector("rect")) !== fill(hl))) problems.push("highlight key missing or differs");
		// The chosen step's markers are outlined in the highlight key's colour.
		const hm = document.querySelector("#timeline .marker.highlighted");
		if (hm && (!key("highlight") || getComputedStyle(key("highlight").querySelector("rect")).stroke !== getComputedStyle(hm).stroke)) problems.push("highlighted markers are outlined " + getComputedStyle(hm).stroke + ", not as the highlight key");
		for (const li of legend) {
			const k = li.dataset.key;
			if (k.startsWith("impact-") && !document.querySelector('#timeline .marker[data-impact="' + k.slice(7) + '"]')) problems.push("key " + k + " for nothing drawn");
			if (k.startsWith("shape-") && !document.querySelector('#timeline .marker[data-severity="' + k.slice(6) + '"]')) problems.push("key " + k + " for nothing drawn");
		}
		return { problems, keys: legend.map(li => li.dataset.key) };
	})())`)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Problems {
		t.Errorf("timeline legend: %s (keys %v)", p, got.Keys)
	}
}

func TestResultsClauseFindingsLinkToCues(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	src := planSRT(24)
	runQA(t, b, "harbour plan.srt", src, "youtube", "warn-only", "dcmp")
	want := apiProcess(t, e, "harbour plan.srt", src, map[string]string{"preset": "youtube", "fixProfile": "warn-only", "standard": "dcmp"})
	st := want.Report.Standard

	// The heading names the standard once; its version is apart.
	if got := b.text("#clauses-s-h"); got != "Standard: "+st.Title {
		t.Errorf("clauses heading = %q, want %q", got, "Standard: "+st.Title)
	}
	if got := b.text("#clauses-version"); got != "Version: "+st.Version {
		t.Errorf("version line = %q", got)
	}

	var failed, notEval, pass int
	for _, c := range st.Clauses {
		sel := fmt.Sprintf(`#clauses li.clause[data-clause=%q]`, c.ID)
		links := eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(a => a.dataset.cue)`, sel+" .clause-findings button.cue-link"))
		switch c.Status {
		case "fail":
			failed++
			if len(c.Findings) == 0 {
				t.Fatalf("clause %s fails without findings", c.ID)
			}
			n := min(3, len(c.Findings))
			if got := eval[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel+" .clause-findings li")); got != n {
				t.Errorf("clause %s lists %d findings, want %d", c.ID, got, n)
			}
			if len(links) == 0 {
				t.Errorf("clause %s has no cue links", c.ID)
			}
			first := b.text(sel + " .clause-findings li")
			if !strings.Contains(first, c.Findings[0].Message) {
				t.Errorf("clause %s first finding = %q, want its message %q", c.ID, first, c.Findings[0].Message)
			}
			more := b.text(sel + " .clause-more")
			if len(c.Findings) > 3 && more != fmt.Sprintf("and %d more findings", len(c.Findings)-3) && more != "and 1 more finding" {
				t.Errorf("clause %s says %q for %d findings", c.ID, more, len(c.Findings))
			}
		case "not_evaluated":
			notEval++
			if got := b.text(sel + " .clause-reason"); c.Reason == "" || !strings.Contains(got, c.Reason) {
				t.Errorf("not-evaluated clause %s shows %q, want its reason %q", c.ID, got, c.Reason)
			}
		case "pass":
			pass++
			if n := eval[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel+" .clause-req, "+sel+" .clause-findings, "+sel+" .clause-reason")); n != 0 {
				t.Errorf("passing clause %s is not compact", c.ID)
			}
		}
	}
	if failed == 0 || notEval == 0 || pass == 0 {
		t.Fatalf("the fixture should fail, pass and leave clauses: %d %d %d", failed, pass, notEval)
	}
	// Failed clauses come first.
	statuses := eval[[]string](b, `[...document.querySelectorAll("#clauses li.clause")].map(li => li.dataset.status)`)
	if statuses[0] != "fail" {
		t.Errorf("clause order %v: failed clauses should come first", statuses)
	}

	// A finding's link shows the delivery's cue, on the delivery's timeline.
	b.run("source view", click("#tl-view-source"))
	link := `#clauses li.clause[data-status="fail"] .clause-findings button.cue-link`
	cue := atoi(eval[string](b, fmt.Sprintf(`document.querySelector(%q).dataset.cue`, link)))
	b.run("clause link", click(link))
	b.waitJS("cue detail", fmt.Sprintf(`document.getElementById("cue-detail-title").textContent === "Cue %d" && document.getElementById("cue-detail-where").dataset.space === "delivery"`, cue+1))
	if got := eval[string](b, `document.getElementById("tl-view-delivery").getAttribute("aria-pressed")`); got != "true" {
		t.Error("a clause's cue link did not switch the timeline to the delivery")
	}
	if !eval[bool](b, fmt.Sprintf(`document.querySelector('#timeline rect.cue[data-cue="%d"]').classList.contains("selected")`, cue)) {
		t.Errorf("cue %d is not selected on the timeline", cue+1)
	}
	if !eval[bool](b, `(r => r.top >= -1 && r.top < innerHeight)(document.getElementById("tl").getBoundingClientRect())`) {
		t.Error("the timeline is not in view after a clause's cue link")
	}
	b.shots("r3-clauses")
}

// TestResultsFitNarrowPages checks at 1280 and 800 px, with a run that has
// many problems, that nothing of the navigation, the form and the timeline
// is cut off or scrolls sideways.
func TestResultsFitNarrowPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	runQA(t, b, "harbour long.srt", planSRT(90), "generic", "layout-preserve-breaks", "dcmp")
	if n := eval[int](b, `document.querySelectorAll("#delivery-body tr[data-code]").length`); n < 20 {
		t.Fatalf("the run should have many problems; the delivery has %d", n)
	}
	// 600 px checks the navigation and the form only: below 640 px the
	// timeline scrolls sideways in its own box, by design.
	for _, w := range []int64{1280, 800, 600} {
		b.viewport(w, 900)
		b.waitJS("layout", fmt.Sprintf(`innerWidth === %d`, w))
		var problems []string
		raw := eval[string](b, `JSON.stringify(((full) => {
			const out = [];
			const vw = document.documentElement.clientWidth;
			if (document.documentElement.scrollWidth > vw) out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + vw);
			const nav = document.getElementById("nav");
			if (nav.scrollWidth > nav.clientWidth) out.push("nav scrolls: " + nav.scrollWidth + " > " + nav.clientWidth);
			const ul = nav.querySelector("ul");
			if (ul.scrollWidth > ul.clientWidth) out.push("nav list overflows: " + ul.scrollWidth + " > " + ul.clientWidth);
			for (const a of nav.querySelectorAll("a")) {
				const r = a.getBoundingClientRect();
				if (r.left < 0 || r.right > vw) out.push("nav link " + a.id + " at " + r.left + "-" + r.right);
			}
			const form = document.getElementById("qa-form").getBoundingClientRect();
			const canvas = document.createElement("canvas").getContext("2d");
			for (const s of document.querySelectorAll("#qa-form select, #qa-form input[type=text]")) {
				const r = s.getBoundingClientRect();
				if (r.left < form.left || r.right > form.right) out.push(s.id + " leaves the form: " + r.left + "-" + r.right + " in " + form.left + "-" + form.right);
				if (s.tagName !== "SELECT") continue;
				const cs = getComputedStyle(s);
				canvas.font = cs.font;
				const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
				for (const o of s.options) {
					const need = canvas.measureText(o.text).width;
					if (need > room) out.push(s.id + ": option " + JSON.stringify(o.text) + " needs " + Math.ceil(need) + " px, has " + Math.floor(room));
				}
			}
			if (!full) return out;
			for (const id of ["delivery-problems", "source-findings", "changes", "clauses-s", "tl"]) {
				const el = document.getElementById(id);
				for (const c of [el, ...el.querySelectorAll("*")]) {
					if (c.closest(".table-wrap, .timeline-scroll, pre")) continue;
					if (c.scrollWidth > c.clientWidth + 1 && getComputedStyle(c).overflowX === "visible" && c.clientWidth > 0) out.push(id + ": " + (c.id || c.className || c.tagName) + " overflows its box");
				}
			}
			return out;
		})(innerWidth >= 800))`)
		if err := json.Unmarshal([]byte(raw), &problems); err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("at %d px: %s", w, p)
		}
		if w < 800 {
			continue
		}
		checkTimelineFits(t, b)
		// The tables fit too: no sideways scrolling at 800 px.
		for _, id := range []string{"delivery-table", "diag-table"} {
			if eval[bool](b, fmt.Sprintf(`(w => w.scrollWidth > w.clientWidth + 1)(document.getElementById(%q).parentElement)`, id)) {
				t.Errorf("at %d px #%s scrolls sideways: %s", w, id, eval[string](b, fmt.Sprintf(`(w => w.scrollWidth + " > " + w.clientWidth)(document.getElementById(%q).parentElement)`, id)))
			}
		}
		// Each view of the timeline fits.
		b.run("source view", click("#tl-view-source"))
		checkTimelineFits(t, b)
		b.run("delivery view", click("#tl-view-delivery"))
	}
	b.viewport(1280, 800)
	b.shots("r4-many-problems")
	for _, id := range []string{"delivery-problems", "tl", "clauses-s"} {
		eval[bool](b, fmt.Sprintf(`document.getElementById(%q).scrollIntoView({block: "start"}), true`, id))
		b.shots("r4-" + id)
	}
}

// TestResultsAidedOutput: a delivery nothing blocks shows so, then its
// suggestions; the aided output, a file of its own, lists what is left in
// it with its own cue numbers, and the timeline can show it.
func TestResultsAidedOutput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	runQA(t, b, "harbour aided.srt", problemSRT, "youtube", "auto-split-cps", "")
	want := apiProcess(t, e, "harbour aided.srt", problemSRT, map[string]string{"preset": "youtube", "fixProfile": "auto-split-cps"})
	if want.AidedSameAsDelivery || want.AidedReport == nil || len(want.AidedReport.Remaining) == 0 || len(want.Report.Remaining) != 0 || len(want.Suggestions) == 0 {
		t.Fatalf("the fixture should give a ready delivery with suggestions and an aided output with problems of its own")
	}
	if got, w := b.text("#delivery-clear"), fmt.Sprintf("Nothing blocks delivery: the delivery meets every rule YouTube (SRT) enforces. %d suggestions for readability:", len(want.Suggestions)); !strings.HasSuffix(got, w) {
		t.Errorf("delivery clear line = %q, want it to end %q", got, w)
	}
	if got, w := sortedRows(b, "delivery-body"), sortedKeys(want.Suggestions); !slices.Equal(got, w) {
		t.Errorf("delivery rows = %v, want the suggestions %v", got, w)
	}
	if n := eval[int](b, `document.querySelectorAll("#delivery-body .blocks").length`); n != 0 {
		t.Errorf("%d Blocks delivery tags on a delivery nothing blocks", n)
	}
	// The aided output's problems, after the delivery's and before the uploaded file's.
	if !before(b, "#delivery-problems", "#aided-problems") || !before(b, "#aided-problems", "#source-findings") {
		t.Error("the aided output's problems are not between the delivery's and the uploaded file's")
	}
	if got, w := b.text("#aided-problems-h"), fmt.Sprintf("Problems left in the aided output (%d)", len(want.AidedReport.Remaining)); got != w {
		t.Errorf("aided heading = %q, want %q", got, w)
	}
	if got, w := sortedRows(b, "aided-body"), sortedKeys(want.AidedReport.Remaining); !slices.Equal(got, w) {
		t.Errorf("aided rows = %v, want %v", got, w)
	}
	// Its timeline: its own cues.
	b.run("aided view", click("#tl-view-aided"))
	if n := eval[int](b, `document.querySelectorAll("#timeline rect.cue").length`); n != want.AidedReport.OutputCues {
		t.Errorf("aided timeline cues = %d, want %d", n, want.AidedReport.OutputCues)
	}
	d := want.AidedReport.Remaining[0]
	b.run("source view", click("#tl-view-source"))
	b.run("aided row", click(fmt.Sprintf(`#aided-body tr[data-cue="%d"]`, *d.CueIndex)))
	b.waitJS("aided cue", fmt.Sprintf(`document.getElementById("cue-detail-title").textContent === "Cue %d" && document.getElementById("cue-detail-where").dataset.space === "aided"`, *d.CueIndex+1))
	if got := eval[string](b, `document.getElementById("tl-view-aided").getAttribute("aria-pressed")`); got != "true" {
		t.Error("an aided row did not switch the timeline to the aided output")
	}
	checkLegend(t, b)
	b.shots("r5-aided")

	// An aided output with nothing left says so.
	runQA(t, b, "harbour html5.srt", problemSRT, "html5", "auto-split-cps", "")
	want = apiProcess(t, e, "harbour html5.srt", problemSRT, map[string]string{"preset": "html5", "fixProfile": "auto-split-cps"})
	if want.AidedSameAsDelivery || want.AidedReport == nil || len(want.AidedReport.Remaining) != 0 {
		t.Fatalf("the html5 run should give a clean aided output of its own")
	}
	if got := b.text("#aided-clear"); !strings.HasSuffix(got, "None: the aided output meets every rule and suggestion of HTML5 video (WebVTT).") {
		t.Errorf("aided clear line = %q", got)
	}
}

func sortedRows(b *tab, body string) []string {
	b.t.Helper()
	v := eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll("#%s tr[data-code]")].map(r => r.dataset.cue + ":" + r.dataset.code)`, body))
	slices.Sort(v)
	return v
}

func sortedKeys(ds []caption.Diagnostic) []string {
	v := keys(ds)
	slices.Sort(v)
	return v
}

// impactSRT has reading speeds, line lengths and durations just past
// each of the impact thresholds (generic: 20 cps and 42 characters
// enforced, 833 ms suggested).
const impactSRT = `1
00:00:01,000 --> 00:00:02,000
Thirty-two characters, exactly.

2
00:00:03,000 --> 00:00:04,000
Twenty-six characters, ok

3
00:00:05,000 --> 00:00:06,000
Twenty-two characters!

4
00:00:07,000 --> 00:00:13,000
This single line has sixty-seven characters in it, give or take some

5
00:00:14,000 --> 00:00:20,000
This line is fifty-five characters long, more or less.

6
00:00:21,000 --> 00:00:27,000
This line has forty-six characters, near enough

7
00:00:28,000 --> 00:00:28,300
Hi

8
00:00:29,000 --> 00:00:29,500
Yes

9
00:00:30,000 --> 00:00:30,700
No
`

// TestResultsImpactTags: each finding's impact follows the documented
// thresholds, apart from whether it blocks delivery, in the table, the
// cue detail and the timeline.
func TestResultsImpactTags(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	runQA(t, b, "thresholds.srt", impactSRT, "generic", "warn-only", "")
	want := apiProcess(t, e, "thresholds.srt", impactSRT, map[string]string{"preset": "generic", "fixProfile": "warn-only"})
	delivery := append(slices.Clone(want.Report.Remaining), want.Suggestions...)
	// Every impact of every code, on both sides of the thresholds.
	seen := map[string]bool{}
	for _, d := range delivery {
		seen[d.Code+" "+wantImpact(d)] = true
	}
	for _, code := range []string{"reading_speed_high", "line_too_long", "duration_too_short"} {
		for _, imp := range []string{"high", "medium", "low"} {
			if !seen[code+" "+imp] {
				t.Fatalf("the fixture has no %s of %s impact: %v", code, imp, seen)
			}
		}
	}
	rows := eval[[]map[string]string](b, `[...document.querySelectorAll("#delivery-body tr[data-code]")].map(r => ({key: r.dataset.cue + ":" + r.dataset.code, impact: r.querySelector(".impact").dataset.impact, text: r.cells[0].textContent.trim(), tag: r.cells[1].textContent.trim(), label: r.getAttribute("aria-label")}))`)
	if len(rows) != len(delivery) {
		t.Fatalf("%d rows, want %d", len(rows), len(delivery))
	}
	byKey := map[string]map[string]string{}
	for _, r := range rows {
		byKey[r["key"]] = r
	}
	words := map[string]string{"high": "High", "medium": "Medium", "low": "Low"}
	for _, d := range delivery {
		r := byKey[diagKey(d)]
		imp := wantImpact(d)
		if r == nil {
			t.Errorf("no row for %s", diagKey(d))
			continue
		}
		if r["impact"] != imp || r["text"] != words[imp] {
			t.Errorf("%s (%v of %v) shows impact %q %q, want %q", diagKey(d), *d.Value, *d.Limit, r["impact"], r["text"], imp)
		}
		tag := map[caption.Severity]string{"error": "Blocks delivery", "warning": "Suggestion"}[d.Severity]
		if !strings.HasSuffix(r["tag"], tag) {
			t.Errorf("%s delivery tag = %q, want %q", diagKey(d), r["tag"], tag)
		}
		if !strings.HasPrefix(r["label"], words[imp]+" impact, "+tag+": ") {
			t.Errorf("%s row label = %q", diagKey(d), r["label"])
		}
	}
	// High red, medium amber, low grey, in words and bars; the blocking tag is dark, neither.
	style := eval[map[string]string](b, `Object.fromEntries(["high","medium","low"].map(i => { const el = document.querySelector('#delivery-body .impact[data-impact="' + i + '"]'); return [i, getComputedStyle(el).color + " " + getComputedStyle(el.querySelector(".impact-bars i:first-child")).backgroundColor]; }))`)
	for imp, w := range map[string]string{"high": "rgb(164, 14, 38) rgb(207, 34, 46)", "medium": "rgb(111, 68, 0) rgb(191, 135, 0)", "low": "rgb(66, 74, 83) rgb(140, 149, 159)"} {
		if style[imp] != w {
			t.Errorf("%s impact colours = %q, want %q", imp, style[imp], w)
		}
	}
	if got := eval[string](b, `getComputedStyle(document.querySelector("#delivery-body .blocks")).backgroundColor`); got != "rgb(36, 41, 47)" {
		t.Errorf("Blocks delivery tag background = %s", got)
	}
	// The timeline's markers carry the same impact.
	for _, d := range delivery {
		got := eval[string](b, fmt.Sprintf(`(document.querySelector('#timeline .marker[data-cue="%d"][data-code=%q]')||{dataset:{}}).dataset.impact || ""`, *d.CueIndex, d.Code))
		if got != wantImpact(d) {
			t.Errorf("marker %s impact = %q, want %q", diagKey(d), got, wantImpact(d))
		}
	}
	// Sorting by impact: high, medium, low; Enter on a row shows its impact in the cue detail.
	b.run("sort", click(`#delivery-table button.sort[data-sort="impact"]`))
	imps := eval[[]string](b, `[...document.querySelectorAll("#delivery-body tr[data-code]")].map(r => r.dataset.impact)`)
	if !slices.IsSortedFunc(imps, func(a, c string) int { return impactRank[a] - impactRank[c] }) || imps[0] != "high" {
		t.Errorf("sorted by impact: %v", imps)
	}
	b.run("first row", click(`#delivery-body tr[data-code]`))
	b.waitJS("detail", `!!document.querySelector("#cue-detail-problems .impact")`)
	if got := b.text("#cue-detail-problems li"); !strings.HasPrefix(got, "High") {
		t.Errorf("cue detail problem = %q", got)
	}
	b.shots("r6-impact")
}

// TestResultsCountEveryProblem: past the API's 100 entries a code, a
// table counts every problem of its list, says how many it does not list,
// and agrees with its section's heading.
func TestResultsCountEveryProblem(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	var srt strings.Builder
	const cues = 130
	for i := range cues {
		fmt.Fprintf(&srt, "%d\n00:%02d:%02d,000 --> 00:%02d:%02d,400\nThis line of caption text goes on well beyond the forty-two characters allowed\n\n",
			i+1, i/60, i%60, i/60, i%60)
	}
	runQA(t, b, "long.srt", srt.String(), "generic", "warn-only", "")
	want := apiProcess(t, e, "long.srt", srt.String(), map[string]string{"preset": "generic", "fixProfile": "warn-only"})
	listed := len(want.Report.Remaining) + len(want.Suggestions)
	total := listed
	for _, o := range want.Report.Omitted {
		if o.List == "remaining" {
			total += o.Count
		}
	}
	for _, o := range want.Omitted {
		if o.List == "suggestions" {
			total += o.Count
		}
	}
	if total <= listed {
		t.Fatalf("the fixture leaves nothing out: %d listed, %d in all", listed, total)
	}
	head := b.text("#delivery-problems-h")
	if wantHead := fmt.Sprintf("Problems in the delivery (%d)", total); head != wantHead {
		t.Errorf("heading %q, want %q", head, wantHead)
	}
	if got, wantCount := b.text("#delivery-count"), fmt.Sprintf("Showing %d of %d problems (%d not listed; counted below the table)", listed, total, total-listed); got != wantCount {
		t.Errorf("count %q, want %q", got, wantCount)
	}
	eval[bool](b, `(document.getElementById("delivery-count").scrollIntoView({block: "center"}), true)`)
	b.shots("35-results-counted")
}
