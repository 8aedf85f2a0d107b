package standard

import (
	"fmt"
	"runtime"
	"strconv"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/rules"
)

// Status is a clause's grade.
type Status string

// Clause statuses, as a process result's report shows them.
const (
	// StatusPass: every part of the clause was checked and held.
	StatusPass Status = "pass"
	// StatusFail: a machine-checkable part of the clause failed.
	StatusFail Status = "fail"
	// StatusNotEvaluated: the file alone cannot settle the clause; the
	// clause's Reason says why.
	StatusNotEvaluated Status = "not_evaluated"
)

// Input is what a clause is graded on. Only Delivery is required; a
// clause that needs a missing field ends not_evaluated and says which.
type Input struct {
	// Source is the track as read from the uploaded file, before fixes.
	Source *caption.Track
	// ReaderDiagnostics are the diagnostics of reading Source.
	ReaderDiagnostics []caption.Diagnostic
	// Delivery is the track handed to the writer, after fixes. Findings
	// carry cue indices of this track.
	Delivery *caption.Track
	// OutputFormat is the delivery's format name, one of
	// format.Writable(): "srt", "vtt", "ttml", "ebu-tt-d", "scc", "stl"
	// or "json".
	OutputFormat string
	// Reparse is the outcome of reading the written delivery back with
	// the output format's reader. With the track read back, EN 301 549
	// 7.1.2 measures the conversion alone rather than the retiming fixes
	// did on purpose. Nil fails the structure clauses: an unread output is
	// not known to be readable.
	Reparse *Reparse
	// MediaDurationMs is the length of the programme the captions belong
	// to, 0 when unknown (then Media's duration, when there is one).
	MediaDurationMs int64
	// Media is the analysis of the programme (docs/media-checks.md), nil
	// when there is none: the clauses that check captions against the
	// speech (FCC synchronicity and completeness, DCMP sync and clarity,
	// WCAG 1.2.2 equivalence) run their media rules on it, and without
	// it stay not_evaluated.
	Media *analysis.Analysis
}

// Reparse is the result of reading the written delivery output back.
type Reparse struct {
	// Track is what the reader returned; nil if it returned none.
	Track *caption.Track
	// Diagnostics are the reader's diagnostics.
	Diagnostics []caption.Diagnostic
}

// Report is the grading of one standard: report.standard in a process
// result.
type Report struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Version string   `json:"version,omitempty"`
	Summary Summary  `json:"summary"`
	Clauses []Clause `json:"clauses"`
}

// Summary counts the clauses of a [Report] by status.
type Summary struct {
	Pass         int `json:"pass"`
	Fail         int `json:"fail"`
	NotEvaluated int `json:"notEvaluated"`
}

// Clause is one graded clause: report.standard.clauses[].
type Clause struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Requirement string `json:"requirement"`
	Status      Status `json:"status"`
	// Findings decided the status (severity "error") or inform it
	// ("warning" for a "should" that was not met, "info" otherwise). They
	// have the shape of report diagnostics; CueIndex refers to the
	// delivery track. Never nil.
	Findings []caption.Diagnostic `json:"findings"`
	// Reason says why the clause is not_evaluated; empty otherwise.
	Reason string `json:"reason,omitempty"`
	// Checks lists what was measured, with thresholds.
	Checks []string `json:"checks,omitempty"`
}

// Grade grades in against every clause of c, in catalogue order. It is
// deterministic and linear in the number of cues, and never fails: a clause
// that lacks what it needs ends not_evaluated with a reason.
func Grade(c *Catalogue, in Input) Report {
	p := prepare(in)
	r := Report{ID: c.ID, Title: c.Title, Version: c.Version, Clauses: make([]Clause, 0, len(c.Clauses))}
	outcomes := gradeClauses(c, p)
	for i := range c.Clauses {
		cl := &c.Clauses[i]
		o := outcomes[i]
		if o.findings == nil {
			o.findings = []caption.Diagnostic{}
		}
		switch o.status {
		case StatusPass:
			r.Summary.Pass++
		case StatusFail:
			r.Summary.Fail++
		default:
			r.Summary.NotEvaluated++
		}
		r.Clauses = append(r.Clauses, Clause{
			ID: cl.ID, Title: cl.Title, Requirement: cl.Requirement,
			Status: o.status, Findings: o.findings, Reason: o.reason,
			Checks: describeChecks(cl),
		})
	}
	return r
}

// parallelCues is the delivery size from which [gradeClauses] grades
// clauses side by side: below it a goroutine costs more than it saves.
const parallelCues = 4096

// gradeClauses grades every clause of c. On a long delivery the clauses,
// which only read p, are graded on as many goroutines as there are
// processors; every outcome lands at its clause's index, so the report
// does not depend on the order they finish.
func gradeClauses(c *Catalogue, p *input) []outcome {
	out := make([]outcome, len(c.Clauses))
	tasks := make([]func(), len(c.Clauses))
	for i := range c.Clauses {
		tasks[i] = func() { out[i] = gradeClause(&c.Clauses[i], p) }
	}
	workers := 1
	if len(p.delivery.Cues) >= parallelCues {
		workers = runtime.GOMAXPROCS(0)
	}
	parallel.Run(tasks, workers)
	return out
}

// gradeClause runs a clause's rule checks and its kind's grader and
// combines them: any error finding fails the clause; a pass needs both to
// pass; NeverPass turns a pass into not_evaluated.
func gradeClause(cl *ClauseSpec, p *input) outcome {
	k, ok := kindOf(cl.Kind)
	if !ok {
		// Only a catalogue built by hand, bypassing Load, gets here.
		return notEvaluated(fmt.Sprintf("unknown clause kind %q", cl.Kind))
	}
	var failed []caption.Diagnostic
	for i := range cl.Checks {
		ds := runCheck(&cl.Checks[i], p.delivery, p.Media)
		if failed == nil {
			// The rule's slice is the clause's own: a clause of one check,
			// the usual case, keeps it without a copy.
			failed = ds
			continue
		}
		failed = append(failed, ds...)
	}
	o := k.grade(cl, p)
	if len(failed) > 0 {
		if len(o.findings) > 0 {
			failed = append(failed, o.findings...)
		}
		o = outcome{status: StatusFail, findings: failed}
	}
	if cl.NeverPass && o.status == StatusPass {
		o.status, o.reason = StatusNotEvaluated, cl.Reason
	}
	if o.status == StatusNotEvaluated && o.reason == "" {
		o.reason = cl.Reason
	}
	if o.status != StatusNotEvaluated {
		o.reason = ""
	}
	return o
}

// runCheck runs one rule with the standard's threshold, against media
// for the rules that read it (which find nothing without it); every
// finding decides a fail.
func runCheck(ch *Check, t *caption.Track, media *analysis.Analysis) []caption.Diagnostic {
	r := ch.rule
	if r == nil {
		var ok bool
		if r, ok = rules.Lookup(ch.Rule); !ok {
			return nil
		}
	}
	ds := r.Check(t, rules.Params{Limit: ch.Limit, Media: media})
	for i := range ds {
		ds[i].Severity = caption.SeverityError
	}
	return ds
}

// describeChecks lists what a clause measures, for Clause.Checks.
func describeChecks(cl *ClauseSpec) []string {
	var out []string
	for _, ch := range cl.Checks {
		s := ch.Rule
		if ch.Limit != 0 {
			unit := ""
			if ch.rule != nil {
				unit = " " + ch.rule.Unit()
			}
			s += " " + comparator(ch.Rule) + " " + num(ch.Limit) + unit
		}
		if ch.Note != "" {
			s += " (" + ch.Note + ")"
		}
		out = append(out, s)
	}
	if d := describeKind(cl); d != "" {
		out = append(out, d)
	}
	return out
}

// comparator says which side of a rule's limit is compliant: minimum
// rules hold at or above it, the rest at or below.
func comparator(code string) string {
	switch code {
	case "duration_too_short", "gap_too_small":
		return "≥"
	case "uncaptioned_speech":
		// Speech shorter than the limit may go uncaptioned.
		return "<"
	}
	return "≤"
}

// describeKind states the check a Go grader makes with its limit.
func describeKind(cl *ClauseSpec) string {
	switch cl.Kind {
	case KindContrast:
		return "contrast ratio ≥ " + num(cl.Limit) + ":1 where text and background colours are declared"
	case KindSync:
		return "cue time change on conversion ≤ " + num(cl.Limit) + " ms"
	case KindCompleteness:
		return "last cue ends ≥ media end − " + num(cl.Limit) + " ms"
	case KindCase:
		return "all-capitals cues ≤ " + num(cl.Limit*100) + "%"
	}
	return ""
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// input is an [Input] made ready for the graders.
type input struct {
	Input
	// delivery is Input.Delivery, or an empty track when it is nil.
	delivery *caption.Track
	// output is what the viewer gets: the re-read output when it has the
	// delivery's cues one for one, else the delivery track.
	output *caption.Track
}

func prepare(in Input) *input {
	p := &input{Input: in, delivery: in.Delivery}
	if p.delivery == nil {
		p.delivery = &caption.Track{Version: caption.Version, Cues: []caption.Cue{}}
	}
	if p.MediaDurationMs <= 0 && in.Media != nil {
		p.MediaDurationMs = in.Media.DurationMs
	}
	p.output = p.delivery
	if rt := in.reparsed(); rt != nil && len(rt.Cues) == len(p.delivery.Cues) {
		p.output = rt
	}
	return p
}

// reparsed returns the re-read track, nil when there is none.
func (in Input) reparsed() *caption.Track {
	if in.Reparse == nil {
		return nil
	}
	return in.Reparse.Track
}

// outcome is what a grader decided.
type outcome struct {
	status   Status
	findings []caption.Diagnostic
	reason   string
}

func passed() outcome { return outcome{status: StatusPass} }

func notEvaluated(reason string) outcome {
	return outcome{status: StatusNotEvaluated, reason: reason}
}

// settle returns fail when any finding is an error, else pass or, when
// reason is not empty, not_evaluated with reason. Non-error findings are
// kept as information either way.
func settle(findings []caption.Diagnostic, reason string) outcome {
	for _, f := range findings {
		if f.Severity == caption.SeverityError {
			return outcome{status: StatusFail, findings: findings}
		}
	}
	if reason != "" {
		return outcome{status: StatusNotEvaluated, findings: findings, reason: reason}
	}
	return outcome{status: StatusPass, findings: findings}
}

// cueFinding is a finding about cue i of t.
func cueFinding(t *caption.Track, i int, code string, sev caption.Severity, format string, args ...any) caption.Diagnostic {
	idx := i
	return caption.Diagnostic{
		Code: code, Severity: sev, Line: t.Cues[i].SourceLine, CueIndex: &idx,
		Message: fmt.Sprintf(format, args...),
	}
}

// trackFinding is a finding about the track as a whole.
func trackFinding(code string, sev caption.Severity, format string, args ...any) caption.Diagnostic {
	return caption.Diagnostic{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...)}
}

// measured adds a measured value and its limit to a finding.
func measured(d caption.Diagnostic, value, limit float64, unit string) caption.Diagnostic {
	d.Value, d.Limit, d.Unit = &value, &limit, unit
	return d
}
