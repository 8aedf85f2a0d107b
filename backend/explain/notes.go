package explain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/rules"
)

// fixPhrases says in words what each action of a change did to n cues,
// in the order the summary lists them; read-only.
var fixPhrases = []struct {
	action string
	phrase func(n string) string
}{
	{fix.ActionSplit, func(n string) string { return "split " + n }},
	{fix.ActionRemove, func(n string) string { return "removed " + n + " without text" }},
	{fix.ActionReorder, func(n string) string { return "put " + n + " back in time order" }},
	{fix.ActionRepairRange, func(n string) string { return "repaired the time range of " + n }},
	{fix.ActionTrimEnd, func(n string) string { return "ended " + n + " earlier" }},
	{fix.ActionExtendEnd, func(n string) string { return "lengthened " + n }},
	{fix.ActionMoveStart, func(n string) string { return "started " + n + " earlier" }},
	{fix.ActionAddBreak, func(n string) string { return "broke over-long lines in " + n }},
	{fix.ActionRewrap, func(n string) string { return "re-broke the lines of " + n }},
	{fix.ActionClamp, func(n string) string { return "brought " + n + " back into the frame" }},
	{fix.ActionWhitespace, func(n string) string { return "tidied the spacing of " + n }},
	{"strip", func(n string) string { return "removed styling the platform cannot show from " + n }},
	{"repair_markup", func(n string) string { return "repaired the markup of " + n }},
	{"strip_control", func(n string) string { return "removed control characters from " + n }},
	{"rewrite_time", func(n string) string { return "rewrote the timestamps of " + n }},
	{"rewrite_arrow", func(n string) string { return "rewrote the time arrows of " + n }},
	{"rewrite_lookalike", func(n string) string { return "wrote text that players would hide as markup with look-alikes in " + n }},
}

// fileFixes says in words what a change to the whole file did; read-only.
var fileFixes = map[string]string{
	"write_header": "wrote the file's header",
	"reencode":     "re-encoded the file as UTF-8",
	"set_language": "declared the captions' language",
}

// alreadyFixed sums up the report's changes by what was done.
func (w *writer) alreadyFixed() string {
	rep := w.in.Report
	cues := map[string]map[int]bool{}
	var file, other []string
	for _, c := range rep.Fixes {
		if c.CueIndex == fix.FileLevel {
			if p, ok := fileFixes[c.Action]; ok && !slices.Contains(file, p) {
				file = append(file, p)
			}
			continue
		}
		if cues[c.Action] == nil {
			cues[c.Action] = map[int]bool{}
		}
		cues[c.Action][c.CueIndex] = true
	}
	var parts []string
	for _, f := range fixPhrases {
		if n := len(cues[f.action]); n > 0 {
			parts = append(parts, f.phrase(plural(n, "cue")))
			delete(cues, f.action)
		}
	}
	for action, cs := range cues {
		other = append(other, fmt.Sprintf("%s (%s)", plural(len(cs), "cue"), action))
	}
	slices.Sort(other)
	if len(other) > 0 {
		parts = append(parts, "made other changes to "+strings.Join(other, ", "))
	}
	parts = append(parts, file...)
	more := 0
	for _, o := range rep.Omitted {
		if o.List == engine.ListFixes {
			more += o.Count
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("Nothing needed changing: the delivery is the uploaded text, written as %s.", strings.ToUpper(rep.OutputFormat))
	}
	s := "CaptionQA " + list(parts)
	if more > 0 {
		s += fmt.Sprintf(", and made %s more", plural(more, "change"))
	}
	if rep.FixProfile == string(fix.WarnOnly) || rep.FixProfile == "" {
		// warn-only edits nothing: what changed is what writing the
		// delivery's format demands.
		return s + " while writing the delivery."
	}
	return s + fmt.Sprintf(" (fix profile %s).", rep.FixProfile)
}

// platformNotes says what the preset demands that matters for this file:
// its output, its setting of every rule the plan deals with, and its notes.
func (w *writer) platformNotes() string {
	var codes []string
	for _, a := range w.x.Actions {
		for _, c := range a.Codes {
			if !slices.Contains(codes, c) {
				codes = append(codes, c)
			}
		}
	}
	slices.Sort(codes)
	s := fmt.Sprintf("%s takes %s", w.p.Title, strings.ToUpper(w.p.Output))
	if w.p.StripStyling {
		s += " as plain text: CaptionQA removes styling and placement"
	}
	s += "."
	var limits []string
	for _, c := range codes {
		set, ok := w.p.Setting(c)
		if !ok {
			continue
		}
		level := "required"
		if set.Level != rules.Enforced {
			level = "suggested"
		}
		// A limit in frames is told in milliseconds at the preset's
		// frame rate, with the frames the spec counts.
		d := describe(c, set.LimitAt(w.p.FrameRate))
		if set.Frames > 0 {
			d += fmt.Sprintf(", %s frames", strconv.FormatFloat(set.Frames, 'f', -1, 64))
		}
		limits = append(limits, fmt.Sprintf("%s (%s)", d, level))
	}
	if len(limits) > 0 {
		s += " For this file: " + list(limits) + "."
	}
	if len(w.p.Notes) > 0 {
		s += " " + strings.Join(w.p.Notes, " ")
	}
	return s
}

// describe says what a rule demands at its limit.
func describe(code string, limit float64) string {
	l := strconv.FormatFloat(limit, 'f', -1, 64)
	switch code {
	case rules.CodeReadingSpeedHigh:
		return "reading speed at most " + l + " characters per second"
	case rules.CodeLineTooLong:
		return "at most " + l + " characters per line"
	case rules.CodeTooManyLines:
		return "at most " + l + " lines per cue"
	case rules.CodeDurationTooShort:
		return "each cue on screen at least " + seconds(limit)
	case rules.CodeDurationTooLong:
		return "each cue on screen at most " + seconds(limit)
	case rules.CodeGapTooSmall:
		return "at least " + l + " ms between cues"
	case rules.CodePresentationRateHigh:
		return "at most " + l + " words per minute"
	case rules.CodeOverlappingCues:
		return "no overlapping cues"
	case rules.CodeEmptyCue:
		return "no cue without text"
	case rules.CodeLineUnbalanced:
		return "balanced line breaks"
	case rules.CodeStripStyling:
		return "no styling"
	case rules.CodePositionOutOfBounds:
		return "every cue inside the frame"
	case rules.CodeMissingLanguageTag:
		return "a declared language"
	}
	return "no " + strings.ReplaceAll(code, "_", " ")
}

func seconds(ms float64) string {
	return strconv.FormatFloat(ms/1000, 'f', -1, 64) + " s"
}

// list joins "a", "b" and "c" as a sentence does.
func list(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
