// Package report makes the QC report a studio hands to its client
// (docs/api.md, QC report; docs/cli.md, --report): one model built from
// an engine result and what the caller knows of the file, and a renderer
// per format, HTML (html.go), CSV (csv.go) and PDF (pdf.go). It knows
// nothing of HTTP, storage or files: callers hand it the result, the
// bytes that were checked and, for the PDF, the font.
package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/rules"
	"github.com/captionqa/captionqa/backend/standard"
)

// Formats a report is rendered in, as the API's format parameter and the
// CLI's file extension name them.
const (
	HTML = "html"
	PDF  = "pdf"
	CSV  = "csv"
)

// ContentType returns the media type of a report in format f, "" for a
// format this package does not render.
func ContentType(f string) string {
	switch f {
	case HTML:
		return "text/html; charset=utf-8"
	case PDF:
		return "application/pdf"
	case CSV:
		return "text/csv; charset=utf-8"
	}
	return ""
}

// Input is what a report is made of.
type Input struct {
	// Title heads the report: the project's or the file's name.
	Title string
	// Facts are what the caller knows of the file (project, revision,
	// file name), shown before the check's own.
	Facts []Fact
	// Generated is when the report was made; it is printed in UTC.
	Generated time.Time
	// Filename, From and Data are the file the engine checked, as it was
	// asked: the report reads it again to place the changes, which name
	// the cues of the file as read.
	Filename, From string
	Data           []byte
	Result         *engine.Result
	// Media is the programme's analysis the check ran with, nil without:
	// its frame rate then gives the timecodes, and the report has a
	// media section.
	Media *analysis.Analysis
}

// Fact is one labelled line of a report's header.
type Fact struct{ Label, Value string }

// Report is the model every renderer draws.
type Report struct {
	Title     string
	Generated string
	Facts     []Fact
	Status    engine.Status
	// Verdict is Status in words: Ready, Will adapt, Needs attention.
	Verdict string
	Summary string
	// TimeBase says how the timecodes count: frames at the media's or
	// the track's rate, else milliseconds.
	TimeBase string
	// Problems are what remains in the delivery: the enforced problems,
	// then the suggestions, by cue; the media findings are in Media.
	Problems []Finding
	// Changes are what the fix profile and normalisation changed, in cue
	// order.
	Changes []Change
	// Standard is the grading, nil without a standard.
	Standard *Standard
	// HasMedia is set when the check ran against the programme's
	// analysis; Media then lists its sync and shot-change findings.
	HasMedia bool
	Media    []Finding
	// Notes say what the lists leave out (the engine keeps the first
	// entries of each code).
	Notes []string

	// at is when the report was made, the PDF's creation date.
	at time.Time
}

// Finding is one problem, placed on its cue.
type Finding struct {
	// Cue is the cue's 1-based number in the delivery, "" for the file.
	Cue        string
	Start, End string
	// Blocking is set for an enforced problem, one that keeps the file
	// from ready; the others are suggestions.
	Blocking bool
	Code     string
	Message  string
	// Text is the cue's text on one line, shortened.
	Text string

	// cue is the 0-based index Cue numbers, -1 for the file.
	cue int
}

// Kind is "Blocks delivery" for an enforced problem, else "Suggestion".
func (f Finding) Kind() string {
	if f.Blocking {
		return "Blocks delivery"
	}
	return "Suggestion"
}

// Change is one repair, placed on the cue of the checked file.
type Change struct {
	Cue, Start, End string
	Code, Action    string
	Message         string
}

// Standard is the clause-by-clause grading.
type Standard struct {
	Title                    string
	Pass, Fail, NotEvaluated int
	Clauses                  []Clause
}

// Clause is one graded clause.
type Clause struct {
	ID, Title, Requirement string
	// Status is Pass, Fail or To check by hand.
	Status string
	// Detail is why it is not evaluated, or its first findings.
	Detail string
}

// Status words of a clause.
const (
	ClausePass = "Pass"
	ClauseFail = "Fail"
	ClauseHand = "To check by hand"
)

// mediaCodes are the findings of the checks against the programme
// (docs/media-checks.md): the report gives them a section of their own.
// The table is read-only.
var mediaCodes = map[string]bool{
	rules.CodeSyncOffset: true, rules.CodeSyncDrift: true, rules.CodeCaptionEarly: true, rules.CodeCaptionLate: true,
	rules.CodeUncaptionedSpeech: true, rules.CodeCaptionWithoutSpeech: true, rules.CodeShotChangeNear: true,
}

// maxText bounds the cue text a finding quotes, in characters.
const maxText = 80

// Build makes the report of in. It never fails on what the engine
// returned: a file it cannot read again gives findings without times.
func Build(in Input) *Report {
	res := in.Result
	r := &Report{
		Title:     in.Title,
		Generated: in.Generated.UTC().Format("2006-01-02 15:04 UTC"),
		Status:    res.DeliveryStatus,
		Verdict:   verdict(res.DeliveryStatus),
		Summary:   res.Report.Summary,
		HasMedia:  in.Media != nil,
		at:        in.Generated.UTC(),
	}
	if r.Title == "" {
		r.Title = "Captions"
	}
	_, source, _, _ := format.Read(in.Filename, in.From, in.Data)
	delivery, _, err := format.Parse(res.Report.OutputFormat, strings.NewReader(res.Output))
	if err != nil {
		delivery = nil
	}
	clock := newClock(in.Media, delivery, source)
	r.TimeBase = clock.base()
	r.Facts = append(r.Facts, in.Facts...)
	r.Facts = append(r.Facts, checkFacts(res, in.Media)...)

	place := func(d caption.Diagnostic, blocking bool) Finding {
		f := Finding{Blocking: blocking, Code: d.Code, Message: d.Message, cue: -1}
		if d.CueIndex != nil {
			f.cue = *d.CueIndex
			f.Cue = strconv.Itoa(*d.CueIndex + 1)
			if c := cueAt(delivery, *d.CueIndex); c != nil {
				f.Start, f.End, f.Text = clock.at(c.StartMs), clock.at(c.EndMs), oneLine(c.Text)
			}
		}
		return f
	}
	for _, d := range res.Report.Remaining {
		r.add(place(d, true))
	}
	for _, d := range res.Suggestions {
		r.add(place(d, false))
	}
	// By cue, the file's own first; at one cue the enforced problems
	// stay before the suggestions.
	byCue := func(a, b Finding) int { return a.cue - b.cue }
	slices.SortStableFunc(r.Problems, byCue)
	slices.SortStableFunc(r.Media, byCue)
	for _, c := range res.Report.Fixes {
		ch := Change{Code: c.Code, Action: c.Action, Message: c.Message}
		if c.CueIndex != fix.FileLevel {
			ch.Cue = strconv.Itoa(c.CueIndex + 1)
			if cue := cueAt(source, c.CueIndex); cue != nil {
				ch.Start, ch.End = clock.at(cue.StartMs), clock.at(cue.EndMs)
			}
		}
		r.Changes = append(r.Changes, ch)
	}
	if s := res.Report.Standard; s != nil {
		r.Standard = grading(s)
	}
	r.Notes = notes(res)
	return r
}

// add files f among the problems or, for a check against the programme,
// the media findings.
func (r *Report) add(f Finding) {
	if mediaCodes[f.Code] {
		r.Media = append(r.Media, f)
		return
	}
	r.Problems = append(r.Problems, f)
}

func verdict(s engine.Status) string {
	switch s {
	case engine.Ready:
		return "Ready"
	case engine.WillAdapt:
		return "Will adapt"
	}
	return "Needs attention"
}

// checkFacts are the facts of the check itself.
func checkFacts(res *engine.Result, media *analysis.Analysis) []Fact {
	rep := res.Report
	std := "none"
	if rep.Standard != nil {
		std = rep.Standard.Title
	}
	fixes := rep.FixProfile
	if fixes == "" {
		fixes = "warn-only"
	}
	m := "none (the checks against picture and sound did not run)"
	if media != nil {
		m = "analysed programme, " + clockText(media.DurationMs, 0)
		if media.Video != nil {
			m += fmt.Sprintf(", %s fps, %d shot changes", fpsText(media.Video.FrameRate.FPS()), len(media.Video.ShotChanges))
		}
		if media.Audio != nil {
			m += fmt.Sprintf(", %d speech segments", len(media.Audio.Speech))
		}
	}
	return []Fact{
		{"Preset", rep.Preset},
		{"Fix profile", fixes},
		{"Standard", std},
		{"Formats", rep.InputFormat + " in, " + rep.OutputFormat + " out"},
		{"Cues", fmt.Sprintf("%d in, %d delivered", rep.InputCues, rep.OutputCues)},
		{"Media", m},
	}
}

func grading(s *standard.Report) *Standard {
	out := &Standard{Title: s.Title, Pass: s.Summary.Pass, Fail: s.Summary.Fail, NotEvaluated: s.Summary.NotEvaluated}
	if s.Version != "" {
		out.Title += " (" + s.Version + ")"
	}
	for _, c := range s.Clauses {
		cl := Clause{ID: c.ID, Title: c.Title, Requirement: c.Requirement}
		switch c.Status {
		case standard.StatusPass:
			cl.Status = ClausePass
		case standard.StatusFail:
			cl.Status = ClauseFail
		default:
			cl.Status = ClauseHand
		}
		cl.Detail = c.Reason
		if cl.Detail == "" && c.Status == standard.StatusFail {
			cl.Detail = firstFindings(c.Findings)
		}
		out.Clauses = append(out.Clauses, cl)
	}
	return out
}

// firstFindings quotes the first findings that decided a failed clause.
func firstFindings(ds []caption.Diagnostic) string {
	const most = 3
	var parts []string
	for _, d := range ds {
		if d.Severity != caption.SeverityError {
			continue
		}
		if len(parts) == most {
			parts = append(parts, "…")
			break
		}
		m := d.Message
		if d.CueIndex != nil {
			m = fmt.Sprintf("cue %d: %s", *d.CueIndex+1, m)
		}
		parts = append(parts, m)
	}
	return strings.Join(parts, "; ")
}

// notes says what the engine's lists left out.
func notes(res *engine.Result) []string {
	var out []string
	say := func(o engine.Omission, what string) {
		out = append(out, fmt.Sprintf("%d more %s of %s are not listed (each list keeps the first %d of a code).", o.Count, what, o.Code, engine.MaxPerCode))
	}
	for _, o := range res.Report.Omitted {
		switch o.List {
		case engine.ListRemaining:
			say(o, "problems")
		case engine.ListFixes:
			say(o, "changes")
		}
	}
	for _, o := range res.Omitted {
		if o.List == engine.ListSuggestions {
			say(o, "suggestions")
		}
	}
	return out
}

func cueAt(t *caption.Track, i int) *caption.Cue {
	if t == nil || i < 0 || i >= len(t.Cues) {
		return nil
	}
	return &t.Cues[i]
}

// oneLine joins a cue's lines with " / " and shortens it to maxText
// characters.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " / ")
	if r := []rune(s); len(r) > maxText {
		return string(r[:maxText-1]) + "…"
	}
	return s
}

// clock writes times as timecodes at a frame rate, or as clock times.
type clock struct {
	fps float64 // 0: milliseconds
	// from says whose rate it is.
	from string
}

// newClock takes the media's frame rate, else the delivery's or the
// source track's declared one.
func newClock(media *analysis.Analysis, tracks ...*caption.Track) clock {
	if media != nil && media.Video != nil {
		if f := media.Video.FrameRate.FPS(); f > 0 {
			return clock{fps: f, from: "the media's"}
		}
	}
	for _, t := range tracks {
		if t != nil && t.FrameRate > 0 {
			return clock{fps: t.FrameRate, from: "the track's"}
		}
	}
	return clock{}
}

func (c clock) base() string {
	if c.fps == 0 {
		return "Times are HH:MM:SS.mmm (hours, minutes, seconds, milliseconds)."
	}
	return fmt.Sprintf("Timecodes are HH:MM:SS:FF at %s frame rate, %s fps (the frame within the second).", c.from, fpsText(c.fps))
}

func (c clock) at(ms int64) string { return clockText(ms, c.fps) }

// clockText writes ms as HH:MM:SS:FF at fps, or HH:MM:SS.mmm when fps is
// 0. The frame counts within the clock second, so a timecode reads
// against the player's clock at any rate, 29.97 fps too.
func clockText(ms int64, fps float64) string {
	if ms < 0 {
		ms = 0
	}
	s := ms / 1000
	hms := fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	if fps == 0 {
		return fmt.Sprintf("%s.%03d", hms, ms%1000)
	}
	return fmt.Sprintf("%s:%02d", hms, int64(float64(ms%1000)*fps/1000))
}

// fpsText writes a frame rate with up to three decimals.
func fpsText(f float64) string {
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(f, 'f', 3, 64), "0"), ".")
}

// Filename returns the download name of a report on base (a file name's
// stem) in format f, with the revision when it is one of a project's.
func Filename(base string, revision int, f string) string {
	if revision > 0 {
		return fmt.Sprintf("%s-qc-report-r%d.%s", base, revision, f)
	}
	return fmt.Sprintf("%s-qc-report.%s", base, f)
}
