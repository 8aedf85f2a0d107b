package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/rules"
)

// summarise writes the report's one or two sentences for a producer: the
// verdict with its main reasons, then the standard's outcome if graded.
// findings are the rules' findings on the source and structural the
// reader's problems that break a rule, each counted once.
func summarise(r *Report, p *preset.Preset, findings, structural []caption.Diagnostic, suggestions int, aided bool) string {
	var b strings.Builder
	switch r.status {
	case Ready:
		fmt.Fprintf(&b, "Ready for %s: %s, and no required rule is broken", p.Title, plural(r.OutputCues, "cue", "cues"))
	case WillAdapt:
		fixed := append(enforced(findings, aided), structural...)
		fmt.Fprintf(&b, "Will adapt for %s: what would block delivery is fixed in the output (%s)", p.Title, topProblems(fixed))
	case NeedsAttention:
		fmt.Fprintf(&b, "Needs attention before delivery to %s: %s (%s)", p.Title,
			plural(len(r.Remaining), "problem remains", "problems remain"), topProblems(r.Remaining))
	}
	if suggestions > 0 {
		fmt.Fprintf(&b, "; %s for readability", plural(suggestions, "suggestion", "suggestions"))
	}
	b.WriteString(".")
	if s := r.Standard; s != nil {
		fmt.Fprintf(&b, " Against %s: %s, %s and %s.", s.Title,
			plural(s.Summary.Pass, "clause passes", "clauses pass"),
			plural(s.Summary.Fail, "fails", "fail"),
			plural(s.Summary.NotEvaluated, "needs a human check", "need a human check"))
	}
	return b.String()
}

// enforced returns the findings the output is held to: enforced rules for
// the delivery, every rule for the aided output.
func enforced(ds []caption.Diagnostic, aided bool) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, d := range ds {
		if held(d, aided) {
			out = append(out, d)
		}
	}
	return out
}

// countHeld counts what [enforced] returns without copying it.
func countHeld(ds []caption.Diagnostic, aided bool) int {
	n := 0
	for _, d := range ds {
		if held(d, aided) {
			n++
		}
	}
	return n
}

func held(d caption.Diagnostic, aided bool) bool { return d.Severity == caption.SeverityError || aided }

// topProblems names the most frequent problems, at most three, and how
// many others there are, as "reading speed high ×12, too many lines ×2,
// line too long ×1 and 3 others", so the counts add up to the total.
func topProblems(ds []caption.Diagnostic) string {
	count := map[string]int{}
	for _, d := range ds {
		count[d.Code]++
	}
	codes := make([]string, 0, len(count))
	for c := range count {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if count[codes[i]] != count[codes[j]] {
			return count[codes[i]] > count[codes[j]]
		}
		return codes[i] < codes[j]
	})
	shown := codes[:min(3, len(codes))]
	parts := make([]string, 0, len(shown))
	rest := len(ds)
	for _, c := range shown {
		parts = append(parts, fmt.Sprintf("%s ×%d", problemName(c), count[c]))
		rest -= count[c]
	}
	s := strings.Join(parts, ", ")
	if rest > 0 {
		s += " and " + plural(rest, "other", "others")
	}
	return s
}

// problemName is a code as a producer reads it: the code's words, but for
// the few whose words would puzzle one.
func problemName(code string) string {
	switch code {
	case caption.CodeEncodingNotUTF8:
		return "text not in UTF-8"
	case caption.CodeMissingWebVTTHeader:
		return "missing WEBVTT header"
	case caption.CodeNoCues:
		return "no cue with text"
	case rules.CodeStripStyling:
		return "styling"
	}
	return strings.ReplaceAll(code, "_", " ")
}

// plural writes n with the singular or plural phrase.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
