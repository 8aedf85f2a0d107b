package explain

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// detail says why an action matters, shows its worst finding, and says
// how it gets done.
func (g *group) detail(a Action, in *Input, platform string, need fix.Profile) string {
	var s []string
	switch g.priority {
	case PriorityBlocking:
		s = append(s, fmt.Sprintf("This blocks delivery to %s.", platform))
	case PriorityStandard:
		s = append(s, fmt.Sprintf("This fails %s of %s.", plural(len(g.clauses), "clause"), standardTitle(in.Report.Standard)))
	case PrioritySuggested:
		s = append(s, fmt.Sprintf("%s suggests this for readability; the delivery can go out without it.", platform))
	}
	if w := g.worst; w != nil {
		lead := "For example"
		if g.count() == 1 {
			lead = "In"
		}
		if w.CueIndex != nil {
			s = append(s, fmt.Sprintf("%s cue %d%s: %s.", lead, *w.CueIndex+1, in.quote(*w.CueIndex), w.Message))
		} else {
			s = append(s, fmt.Sprintf("In the file: %s.", w.Message))
		}
	}
	switch {
	case a.AutoFixable && a.FixProfile == in.Report.FixProfile:
		s = append(s, "The enhanced delivery (aidedOutput) already does this: deliver it instead, after a look.")
	case a.AutoFixable:
		s = append(s, fmt.Sprintf("Running QA again with the fix profile %s does this.", a.FixProfile))
	case g.kind == KindRestoreContent:
		s = append(s, "No fix brings back text the reader could not read: export the source again from the authoring tool, or restore the text by hand.")
	case g.kind == KindSetLanguage:
		s = append(s, "Send the language (a BCP 47 tag such as en-US) with the run, or declare it in the source.")
	case need != "":
		s = append(s, fmt.Sprintf("The fix profile %s could not do this here: edit by hand.", in.Report.FixProfile))
	default:
		s = append(s, "No fix profile does this: edit by hand.")
	}
	if len(g.clauses) > 0 && g.priority != PriorityStandard {
		s = append(s, fmt.Sprintf("It also settles %s of %s.", plural(len(g.clauses), "clause"), standardTitle(in.Report.Standard)))
	}
	return strings.Join(s, " ")
}

// quote is ` ("the cue's first words…")` when the caller sent the cues'
// text, else "".
func (in *Input) quote(i int) string {
	if i < 0 || i >= len(in.Cues) {
		return ""
	}
	t := strings.Join(strings.Fields(in.Cues[i].Text), " ")
	if t == "" {
		return ""
	}
	const maxQuote = 40
	if utf8.RuneCountInString(t) > maxQuote {
		r := []rune(t)
		t = strings.TrimSpace(string(r[:maxQuote])) + "…"
	}
	return fmt.Sprintf(" (%q)", t)
}

func standardTitle(st *standard.Report) string {
	if st == nil {
		return "the standard"
	}
	return st.Title
}

// plural is "1 cue", "3 cues".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
