package explain

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/preset"
)

// writer writes the built-in prose of one explanation, from its input and
// the plan already made.
type writer struct {
	in *Input
	p  *preset.Preset
	x  *Explanation
}

// blocking counts the findings that block the delivery.
func (w *writer) blocking() int {
	n := len(w.in.Report.Remaining)
	for _, o := range w.in.Report.Omitted {
		if o.List == engine.ListRemaining {
			n += o.Count
		}
	}
	return n
}

func (w *writer) suggestionCount() int {
	s, omitted := w.in.suggestions()
	n := len(s)
	for _, k := range omitted {
		n += k
	}
	return n
}

func (w *writer) headline() string {
	rep := w.in.Report
	var h string
	switch n := w.blocking(); {
	case n > 0:
		verb := "blocks"
		if n > 1 {
			verb = "block"
		}
		h = fmt.Sprintf("Not ready for %s: %s %s delivery", w.p.Title, plural(n, "problem"), verb)
	case len(rep.Fixes) > 0:
		h = fmt.Sprintf("Ready for %s with CaptionQA's changes", w.p.Title)
	default:
		h = fmt.Sprintf("Ready for %s", w.p.Title)
	}
	if n := w.suggestionCount(); n > 0 {
		h += fmt.Sprintf("; %s for readability", plural(n, "suggestion"))
	}
	if st := rep.Standard; st != nil && st.Summary.Fail > 0 {
		h += fmt.Sprintf("; %d of %d clauses of %s fail", st.Summary.Fail, len(st.Clauses), st.Title)
	}
	return h
}

func (w *writer) message() string {
	acts := w.x.Actions
	if len(acts) == 0 {
		return fmt.Sprintf("Nothing needs doing: the delivery meets every rule %s enforces and suggests.", w.p.Title)
	}
	minutes, auto := 0, 0
	for _, a := range acts {
		minutes += a.EffortMinutes
		if a.AutoFixable {
			auto++
		}
	}
	m := fmt.Sprintf("Start with: %s. ", acts[0].Title)
	if len(acts) == 1 {
		m += fmt.Sprintf("It takes about %s.", plural(minutes, "minute"))
	} else {
		m += fmt.Sprintf("The plan has %d steps and takes about %s.", len(acts), plural(minutes, "minute"))
	}
	switch {
	case auto > 0 && len(acts) == 1:
		m += " " + autoDone(acts[0])
	case auto > 0:
		m += fmt.Sprintf(" A fix profile or the enhanced delivery does %d of them.", auto)
	}
	return m
}

func (w *writer) clientSummary() string {
	rep := w.in.Report
	var b strings.Builder
	fmt.Fprintf(&b, "Captions for %s: %s file of %s, made from %s file of %s.\n",
		w.p.Title, article(rep.OutputFormat), plural(rep.OutputCues, "cue"), article(rep.InputFormat), plural(rep.InputCues, "cue"))
	switch n := w.blocking(); {
	case n > 0:
		fmt.Fprintf(&b, "Status: not ready yet; %s must be fixed before upload.\n", plural(n, "problem"))
	case len(rep.Fixes) > 0:
		b.WriteString("Status: ready to upload, with the changes below.\n")
	default:
		b.WriteString("Status: ready to upload.\n")
	}
	fmt.Fprintf(&b, "Adapted: %s\n", w.x.AlreadyFixedSummary)
	if st := rep.Standard; st != nil {
		fmt.Fprintf(&b, "Standard: against %s, of %s %d pass, %d fail and %d need a human check.\n",
			st.Title, plural(len(st.Clauses), "clause"), st.Summary.Pass, st.Summary.Fail, st.Summary.NotEvaluated)
	}
	if len(w.x.Actions) == 0 {
		b.WriteString("Remaining: nothing.\n")
		return b.String()
	}
	b.WriteString("Remaining:\n")
	for _, a := range w.x.Actions {
		tag := ""
		if a.Blocking {
			tag = ", before delivery"
		}
		fmt.Fprintf(&b, "- %s (%s%s)\n", a.Title, a.Owner, tag)
	}
	first := w.x.Actions[0]
	fmt.Fprintf(&b, "Next: the %s, to %s.\n", first.Owner, lowerFirst(first.Title))
	return b.String()
}

func (w *writer) comparison() string {
	c := w.x.DeliveryComparison
	a := w.in.AidedReport
	if a == nil || w.in.AidedSameAsDelivery {
		return fmt.Sprintf("The enhanced delivery is the same file as the upload-ready one: both score %g.", c.UploadReadyScore)
	}
	if worse := w.in.aidedWorse(); worse != nil {
		return fmt.Sprintf("The enhanced delivery scores %g against %g for the upload-ready one, but its fixes made problems the upload-ready one has not (%s): deliver the upload-ready file.",
			c.EnhancedScore, c.UploadReadyScore, strings.Join(worse, ", "))
	}
	switch {
	case c.EnhancedScore > c.UploadReadyScore:
		return fmt.Sprintf("The enhanced delivery scores %g against %g for the upload-ready one: its fixes also aim at %s's suggestions.",
			c.EnhancedScore, c.UploadReadyScore, w.p.Title)
	case c.EnhancedScore < c.UploadReadyScore:
		return fmt.Sprintf("The upload-ready delivery scores %g against %g for the enhanced one: deliver the upload-ready file.",
			c.UploadReadyScore, c.EnhancedScore)
	}
	return fmt.Sprintf("Both deliveries score %g.", c.UploadReadyScore)
}

// autoDone says who does an auto-fixable action.
func autoDone(a Action) string {
	if a.FixProfile != "" {
		return fmt.Sprintf("The fix profile %s does it.", a.FixProfile)
	}
	return ""
}

// article is "an SRT", "a VTT": a format's name is read letter by
// letter, so "an" goes before the letters whose names start with a vowel.
func article(format string) string {
	f := strings.ToUpper(format)
	if f != "" && strings.ContainsRune("AEFHILMNORSX", rune(f[0])) && f != "JSON" {
		return "an " + f
	}
	return "a " + f
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
