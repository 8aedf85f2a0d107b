package explain

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// group gathers the findings one action settles.
type group struct {
	priority int
	kind     string
	codes    []string
	cues     map[int]bool
	// fileLevel counts findings about the file as a whole; omitted
	// counts findings a list left out, each taken as one more cue.
	fileLevel, omitted int
	clauses            []string
	// worst is the finding shown as the example: the one furthest over
	// its limit, else the first.
	worst *caption.Diagnostic
	// fixedByAided: the enhanced delivery has none of these findings left.
	fixedByAided bool
}

func (g *group) count() int { return len(g.cues) + g.fileLevel + g.omitted }

func (g *group) add(d *caption.Diagnostic) {
	if !slices.Contains(g.codes, d.Code) {
		g.codes = append(g.codes, d.Code)
	}
	if d.CueIndex != nil {
		g.cues[*d.CueIndex] = true
	} else {
		g.fileLevel++
	}
	if g.worst == nil || over(d) > over(g.worst) {
		g.worst = d
	}
}

// over is how far a finding is past its limit, as a share of the limit.
func over(d *caption.Diagnostic) float64 {
	if d.Value == nil || d.Limit == nil || *d.Limit == 0 {
		return 0
	}
	return (*d.Value - *d.Limit) / *d.Limit
}

// planner builds the groups of one input in a fixed order, so the same
// report always gives the same plan.
type planner struct {
	groups []*group
	byKey  map[groupKey]*group
	// covered holds, for each finding (code and cue) already in a group,
	// that group: the same problem found again at a lower priority (a
	// clause's finding that is also a remaining problem, a suggestion a
	// clause already fails) is one step, not two.
	covered map[finding]*group
}

type groupKey struct {
	priority int
	kind     string
}

type finding struct {
	code string
	cue  int // -1: the file
}

func newPlanner() *planner {
	return &planner{byKey: map[groupKey]*group{}, covered: map[finding]*group{}}
}

func (p *planner) group(priority int, kind string) *group {
	k := groupKey{priority, kind}
	if g := p.byKey[k]; g != nil {
		return g
	}
	g := &group{priority: priority, kind: kind, cues: map[int]bool{}}
	p.groups = append(p.groups, g)
	p.byKey[k] = g
	return g
}

// omittedOf counts, by code, the entries list left out (clause "" for the
// report's own lists).
func omittedOf(os []engine.Omission, list, clause string) map[string]int {
	m := map[string]int{}
	for _, o := range os {
		if o.List == list && o.Clause == clause {
			m[o.Code] += o.Count
		}
	}
	return m
}

// addAll puts every finding of ds in the group of its kind at priority,
// unless a more urgent group already holds it (which then also settles
// clause), and counts the omitted ones.
func (p *planner) addAll(priority int, ds []caption.Diagnostic, omitted map[string]int, clause string) {
	for i := range ds {
		f := finding{ds[i].Code, -1}
		if c := ds[i].CueIndex; c != nil {
			f.cue = *c
		}
		kind := kindOf(ds[i].Code)
		switch {
		case priority == PriorityBlocking && dropped(&ds[i]):
			kind = KindRestoreContent
		case priority == PriorityBlocking && guessed(&ds[i]):
			kind = KindReviewManually
		}
		g := p.covered[f]
		if g == nil && clause != "" && kind == KindRestoreContent {
			// The standard's text_lost is the content the reader
			// dropped, already a blocking step.
			g = p.byKey[groupKey{PriorityBlocking, kind}]
		}
		if g == nil {
			g = p.group(priority, kind)
			g.add(&ds[i])
			p.covered[f] = g
		}
		if clause != "" && !slices.Contains(g.clauses, clause) {
			g.clauses = append(g.clauses, clause)
		}
	}
	for _, code := range sortedKeys(omitted) {
		p.group(priority, kindOf(code)).omitted += omitted[code]
	}
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// plan builds the actions of in, most urgent first: what blocks the
// delivery, then what fails a clause of the standard, then the preset's
// suggestions, then what only a person can check.
func plan(in *Input, platform string) []Action {
	rep := in.Report
	p := newPlanner()
	p.addAll(PriorityBlocking, rep.Remaining, omittedOf(rep.Omitted, engine.ListRemaining, ""), "")
	if st := rep.Standard; st != nil {
		for i := range st.Clauses {
			c := &st.Clauses[i]
			if c.Status != standard.StatusFail {
				continue
			}
			p.addAll(PriorityStandard, deciding(c.Findings), omittedOf(rep.Omitted, engine.ListFindings, c.ID), c.ID)
		}
	}
	sugg, omitted := in.suggestions()
	p.addAll(PrioritySuggested, sugg, omitted, "")
	// The enhanced delivery settles a step only when it is no worse than
	// the upload-ready one: the plan never sends an editor to a file with
	// problems the delivery has not.
	offered := in.AidedReport != nil && !in.AidedSameAsDelivery && in.aidedWorse() == nil
	aidedLeft := map[string]bool{}
	if a := in.AidedReport; offered {
		for _, d := range a.Remaining {
			aidedLeft[d.Code] = true
		}
		for _, o := range a.Omitted {
			if o.List == engine.ListRemaining {
				aidedLeft[o.Code] = true
			}
		}
	}
	for _, g := range p.groups {
		g.fixedByAided = offered && !slices.ContainsFunc(g.codes, func(c string) bool { return aidedLeft[c] })
	}
	slices.SortStableFunc(p.groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(a.priority, b.priority), cmp.Compare(kinds[a.kind].orderInTier, kinds[b.kind].orderInTier))
	})
	actions := make([]Action, 0, len(p.groups)+1)
	for _, g := range p.groups {
		actions = append(actions, g.action(in, platform))
	}
	if a, ok := review(in); ok {
		actions = append(actions, a)
	}
	for i := range actions {
		actions[i].ID = fmt.Sprintf("a%d", i+1)
	}
	return actions
}

// dropped reports whether a remaining finding is content the reader left
// out (a reader's code with severity error): only the source brings it
// back, whatever the code would otherwise call for.
func dropped(d *caption.Diagnostic) bool {
	if d.Severity != caption.SeverityError {
		return false
	}
	switch d.Code {
	case caption.CodeInvalidTimestamp, caption.CodeMalformedBlock, caption.CodeInvalidDocument, caption.CodeContentNotDisplayed,
		caption.CodeUnsupportedFeature, caption.CodeInvalidCounter, caption.CodeEndBeforeStart, caption.CodeInvalidSetting, caption.CodeInvalidMarkup:
		return true
	}
	return false
}

// guessed reports whether a remaining finding is text the reader read
// from bytes its encoding cannot read (encoding_not_utf8 with severity
// error): a person checks the characters against the source.
func guessed(d *caption.Diagnostic) bool {
	return d.Severity == caption.SeverityError && d.Code == caption.CodeEncodingNotUTF8
}

// deciding keeps the findings that decided a failed clause (severity
// error); the others only inform it.
func deciding(ds []caption.Diagnostic) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, d := range ds {
		if d.Severity == caption.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// suggestions are the delivery's suggestions, or without them the
// report's warnings of the preset's rules.
func (in *Input) suggestions() ([]caption.Diagnostic, map[string]int) {
	if in.HasSuggestions {
		m := map[string]int{}
		if in.SuggestionsOmitted > 0 && len(in.Suggestions) > 0 {
			// The result counts the omitted suggestions by code; the
			// input carries only their sum, which goes to the last code.
			m[in.Suggestions[len(in.Suggestions)-1].Code] = in.SuggestionsOmitted
		}
		return in.Suggestions, m
	}
	var out []caption.Diagnostic
	for _, d := range in.Report.Diagnostics {
		if d.Severity == caption.SeverityWarning && d.CueIndex != nil {
			out = append(out, d)
		}
	}
	return out, map[string]int{}
}

// action writes the group's action.
func (g *group) action(in *Input, platform string) Action {
	info := kinds[g.kind]
	cues := make([]int, 0, len(g.cues))
	for c := range g.cues {
		cues = append(cues, c)
	}
	slices.Sort(cues)
	a := Action{
		Priority: g.priority, Blocking: g.priority == PriorityBlocking, Kind: g.kind,
		Title: info.title,
		Codes: g.codes, CueIndexes: cues[:min(len(cues), MaxCueIndexes)], Count: g.count(),
		Clauses: nonNil(g.clauses), Owner: info.owner,
	}
	if strings.Contains(info.title, "%s") {
		a.Title = fmt.Sprintf(info.title, g.subject())
	}
	// A kind may come back at each priority: the title says which.
	switch g.priority {
	case PriorityStandard:
		a.Title += " (" + standardTitle(in.Report.Standard) + ")"
	case PrioritySuggested:
		a.Title += " (suggested)"
	}
	current := fix.Profile(in.Report.FixProfile)
	var need fix.Profile
	for _, c := range g.codes {
		if g.kind == KindRestoreContent {
			break
		}
		pf := profileFor(c)
		if pf == "" {
			need = ""
			break
		}
		if strength(pf) > strength(need) {
			need = pf
		}
	}
	switch {
	case g.fixedByAided && g.priority != PriorityStandard:
		a.AutoFixable, a.FixProfile = true, string(current)
	case need != "" && strength(need) > strength(current):
		a.AutoFixable, a.FixProfile = true, string(need)
	}
	a.EffortMinutes = effort(a, info)
	a.Detail = g.detail(a, in, platform, need)
	return a
}

// subject names what a group is about: "cue 4", "12 cues" or "the file".
func (g *group) subject() string {
	n := len(g.cues) + g.omitted
	switch {
	case n == 0:
		return "the file"
	case n == 1:
		for c := range g.cues {
			return fmt.Sprintf("cue %d", c+1)
		}
		return "1 cue"
	}
	return fmt.Sprintf("%d cues", n)
}

// effort estimates an editor's minutes: a step a fix profile does costs
// a run and a spot check (2 minutes and 6 seconds a cue); one done by hand
// a minute to start and the kind's minutes per cue, rounded up.
func effort(a Action, info kindInfo) int {
	per := info.perCue
	base := 1.0
	if a.AutoFixable {
		per, base = 0.1, 2
	}
	return int(math.Ceil(base + per*float64(a.Count)))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
