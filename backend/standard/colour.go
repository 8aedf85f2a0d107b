package standard

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeColour grades WCAG 1.4.1: colour is not the only way meaning is
// shown. Colour can only carry meaning when the output shows text in more
// than one colour; then the clause needs a reader (are the colours telling
// speakers apart without a label?) and is not_evaluated, with a finding
// on the first cue in a second colour. One colour or none passes.
func gradeColour(cl *ClauseSpec, p *input) outcome {
	t := p.output
	first := map[string]int{} // colour ("" = the player's default) → first cue
	var order []string
	for i := range t.Cues {
		eachStyledRune(t, &t.Cues[i], func(fg, _ string) {
			if _, ok := first[fg]; !ok {
				first[fg] = i
				order = append(order, fg)
			}
		})
	}
	if len(order) <= 1 {
		return passed()
	}
	names := make([]string, len(order))
	for k, c := range order {
		names[k] = c
		if c == "" {
			names[k] = "the player's default"
		}
	}
	o := notEvaluated(fmt.Sprintf("text is shown in %d colours (%s); whether colour alone tells speakers or meaning apart needs a reader",
		len(order), strings.Join(names, ", ")))
	o.findings = []caption.Diagnostic{cueFinding(t, first[order[1]], "colour_used", caption.SeverityInfo,
		"first cue in a second colour (%s); check that a label or dash also marks what the colour means", names[1])}
	return o
}

// eachStyledRune calls fn with the text and background colour of each
// visible character run of cue c: a span's colours override the cue's
// style, "" means not declared, and colours are lower case with an opaque
// alpha removed. Runs are reported per span, not per character.
func eachStyledRune(t *caption.Track, c *caption.Cue, fn func(fg, bg string)) {
	var st caption.Style
	if c.Style != "" {
		for _, s := range t.Styles {
			if s.ID == c.Style {
				st = s
				break
			}
		}
	}
	baseFg, baseBg := normColour(st.Color), normColour(st.Background)
	if len(c.Spans) == 0 {
		if strings.TrimSpace(c.Text) != "" {
			fn(baseFg, baseBg)
		}
		return
	}
	// Walk code points once, tracking which span (if any) covers each; IR
	// spans are in order and do not overlap.
	k, pos := 0, 0
	lastFg, lastBg, started := "", "", false
	for _, r := range c.Text {
		for k < len(c.Spans) && c.Spans[k].End <= pos {
			k++
		}
		fg, bg := baseFg, baseBg
		if k < len(c.Spans) && c.Spans[k].Start <= pos {
			if s := c.Spans[k]; s.Color != "" {
				fg = normColour(s.Color)
			}
			if s := c.Spans[k]; s.Background != "" {
				bg = normColour(s.Background)
			}
		}
		pos++
		if unicode.IsSpace(r) || (started && fg == lastFg && bg == lastBg) {
			continue
		}
		fn(fg, bg)
		lastFg, lastBg, started = fg, bg, true
	}
}

// normColour lower-cases a "#rrggbb[aa]" colour and drops an opaque alpha,
// so "#FFFFFF" and "#ffffffff" compare equal.
func normColour(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) == 9 && strings.HasSuffix(s, "ff") {
		s = s[:7]
	}
	return s
}
