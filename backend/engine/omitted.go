package engine

import (
	"slices"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/jsonw"
	"github.com/captionqa/captionqa/backend/standard"
)

// MaxPerCode is how many entries of one code each list of a [Result]
// keeps, unless [Request.AllDiagnostics] asks for all: the first 100 of
// the code, in the list's order. The lists are a report's diagnostics,
// fixes and remaining problems, a standard clause's findings, and the
// result's suggestions. A long file breaks the same rule on every cue: a
// 40,000-cue file read too fast would list 40,000 identical findings in
// each list, tens of megabytes of JSON that say no more than the first
// hundred and a count. What a list leaves out is counted, by code, in
// [Report.Omitted] (in [Result.Omitted] for the suggestions).
//
// Only what is returned is capped: the delivery status, the summary and
// the standard's grading are worked out on every finding first.
const MaxPerCode = 100

// Names of the lists an [Omission] counts from: each is the JSON name of
// the list.
const (
	ListDiagnostics = "diagnostics"
	ListFixes       = "fixes"
	ListRemaining   = "remaining"
	ListSuggestions = "suggestions"
	// ListFindings is a standard clause's findings; [Omission.Clause]
	// names the clause.
	ListFindings = "findings"
)

// Omission counts the entries of one code that a list leaves out, after
// the first [MaxPerCode] it keeps: the list holds MaxPerCode entries of
// Code and Count more were found.
type Omission struct {
	// List is the list: diagnostics, fixes, remaining or findings (of
	// the report the omission is in), suggestions (of the result).
	List string `json:"list"`
	// Clause is the id of the standard clause, for the findings list.
	Clause string `json:"clause,omitempty"`
	Code   string `json:"code"`
	Count  int    `json:"count"`
}

// appendJSON appends o to b as encoding/json writes it.
func (o *Omission) appendJSON(b []byte) []byte {
	b = append(b, `{"list":`...)
	b = jsonw.AppendString(b, o.List)
	if o.Clause != "" {
		b = append(b, `,"clause":`...)
		b = jsonw.AppendString(b, o.Clause)
	}
	b = append(b, `,"code":`...)
	b = jsonw.AppendString(b, o.Code)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(o.Count), 10)
	return append(b, '}')
}

func encodeOmitted(e *jsonw.Encoder, om []Omission) {
	jsonw.Array(e, om, (*Omission).appendJSON)
}

// capLists keeps at most max entries of each code in every list of r, and
// records what each leaves out. A list Process shares between the reports
// (the input's diagnostics, a warn-only run's suggestions and the aided
// output's remaining problems, the fixes of one output serving both) is
// capped once and its capped copy shared again.
// Lists that need no cap are kept as they are, nil or empty alike.
func (r *Result) capLists(max int) {
	c := capper{max: max}
	for _, rep := range []*Report{r.Report, r.AidedReport} {
		if rep == nil {
			continue
		}
		rep.Diagnostics, rep.Omitted = c.diags(rep.Diagnostics, ListDiagnostics, rep.Omitted)
		rep.Fixes, rep.Omitted = c.changes(rep.Fixes, rep.Omitted)
		rep.Remaining, rep.Omitted = c.diags(rep.Remaining, ListRemaining, rep.Omitted)
		rep.Standard, rep.Omitted = c.standard(rep.Standard, rep.Omitted)
	}
	r.Suggestions, r.Omitted = c.diags(r.Suggestions, ListSuggestions, r.Omitted)
}

// capper caps the lists of one result, remembering each list it capped.
type capper struct {
	max     int
	diagMem []capped[caption.Diagnostic]
	fixMem  []capped[fix.Change]
}

// capped is a list, what it was cut to, and the counts of its codes.
type capped[T any] struct {
	in, out []T
	counts  []codeCount
}

type codeCount struct {
	code string
	n    int
}

func (c *capper) diags(ds []caption.Diagnostic, list string, om []Omission) ([]caption.Diagnostic, []Omission) {
	m := remember(&c.diagMem, ds, c.max, func(d *caption.Diagnostic) string { return d.Code })
	return m.out, c.omit(om, m.counts, list, "")
}

func (c *capper) changes(cs []fix.Change, om []Omission) ([]fix.Change, []Omission) {
	m := remember(&c.fixMem, cs, c.max, func(ch *fix.Change) string { return ch.Code })
	return m.out, c.omit(om, m.counts, ListFixes, "")
}

// standard caps each clause's findings in a copy of s; s itself, which
// the grading made, is left as it is.
func (c *capper) standard(s *standard.Report, om []Omission) (*standard.Report, []Omission) {
	if s == nil {
		return nil, om
	}
	var clauses []standard.Clause
	for i := range s.Clauses {
		cl := &s.Clauses[i]
		kept, counts := capByCode(cl.Findings, c.max, func(d *caption.Diagnostic) string { return d.Code })
		if counts == nil {
			continue
		}
		if clauses == nil {
			clauses = slices.Clone(s.Clauses)
		}
		clauses[i].Findings = kept
		om = c.omit(om, counts, ListFindings, cl.ID)
	}
	if clauses == nil {
		return s, om
	}
	cs := *s
	cs.Clauses = clauses
	return &cs, om
}

// omit appends an omission for each code counted above the cap.
func (c *capper) omit(om []Omission, counts []codeCount, list, clause string) []Omission {
	for _, k := range counts {
		if k.n > c.max {
			om = append(om, Omission{List: list, Clause: clause, Code: k.code, Count: k.n - c.max})
		}
	}
	return om
}

// remember caps list, or returns how it was capped when the same list
// (the same elements, not an equal copy) was capped before.
func remember[T any](mem *[]capped[T], list []T, max int, code func(*T) string) capped[T] {
	for _, m := range *mem {
		if len(list) > 0 && len(m.in) == len(list) && &m.in[0] == &list[0] {
			return m
		}
	}
	out, counts := capByCode(list, max, code)
	m := capped[T]{in: list, out: out, counts: counts}
	if len(list) > 0 {
		*mem = append(*mem, m)
	}
	return m
}

// capByCode returns the first max entries of each code of list, in the
// list's order, and every code's count in the order codes first appear.
// When no code has more than max entries it returns list itself and nil
// counts.
func capByCode[T any](list []T, max int, code func(*T) string) ([]T, []codeCount) {
	// A list holds a handful of codes, mostly in runs: a slice searched
	// from the last code seen costs less than a map.
	var counts []codeCount
	at := func(k string, last int) int {
		if last >= 0 && counts[last].code == k {
			return last
		}
		for i := range counts {
			if counts[i].code == k {
				return i
			}
		}
		counts = append(counts, codeCount{code: k})
		return len(counts) - 1
	}
	over, last := false, -1
	for i := range list {
		last = at(code(&list[i]), last)
		counts[last].n++
		over = over || counts[last].n > max
	}
	if !over {
		return list, nil
	}
	n := 0
	for _, k := range counts {
		n += min(k.n, max)
	}
	kept := make([]T, 0, n)
	seen := make([]int, len(counts))
	last = -1
	for i := range list {
		last = at(code(&list[i]), last)
		if seen[last]++; seen[last] <= max {
			kept = append(kept, list[i])
		}
	}
	return kept, counts
}
