package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

// aidedWorse lists, as "too many lines ×1", what the enhanced delivery
// has that the upload-ready one has not (docs/api.md, ExplainAI): more
// blocking findings (severity error) of a code than the upload-ready
// delivery's remaining problems, or findings of a code the upload-ready
// delivery has neither as a problem nor as a suggestion. nil when the
// enhanced delivery is the same file, or has no such finding: only then
// may the plan send an editor to it. Omitted entries count as listed, with
// the severity the list gives their code.
func (in *Input) aidedWorse() []string {
	a := in.AidedReport
	if a == nil || in.AidedSameAsDelivery {
		return nil
	}
	blocking := func(rep *engine.Report) map[string]int {
		m := map[string]int{}
		sev := map[string]caption.Severity{}
		for _, d := range rep.Remaining {
			sev[d.Code] = d.Severity
			if d.Severity == caption.SeverityError {
				m[d.Code]++
			}
		}
		for _, o := range rep.Omitted {
			if o.List == engine.ListRemaining && sev[o.Code] == caption.SeverityError {
				m[o.Code] += o.Count
			}
		}
		return m
	}
	known := map[string]bool{}
	for _, d := range in.Report.Remaining {
		known[d.Code] = true
	}
	for _, o := range in.Report.Omitted {
		if o.List == engine.ListRemaining {
			known[o.Code] = true
		}
	}
	sugg, omitted := in.suggestions()
	for _, d := range sugg {
		known[d.Code] = true
	}
	for c := range omitted {
		known[c] = true
	}
	extra := map[string]int{}
	db, ab := blocking(in.Report), blocking(a)
	for c, n := range ab {
		if n > db[c] {
			extra[c] = n - db[c]
		}
	}
	for _, d := range a.Remaining {
		if !known[d.Code] && d.Severity != caption.SeverityError {
			extra[d.Code]++
		}
	}
	for _, o := range a.Omitted {
		if o.List == engine.ListRemaining && !known[o.Code] && ab[o.Code] == 0 {
			extra[o.Code] += o.Count
		}
	}
	if len(extra) == 0 {
		return nil
	}
	out := make([]string, 0, len(extra))
	for _, c := range sortedKeys(extra) {
		out = append(out, fmt.Sprintf("%s ×%d", strings.ReplaceAll(c, "_", " "), extra[c]))
	}
	return slices.Clip(out)
}
