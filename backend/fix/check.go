package fix

import (
	"fmt"
	"math"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// check lists what still breaks a target in the fixed track t, in cue
// order. m measures t's cues (nil: check measures them). A cue within
// every target costs no allocation.
func check(t *caption.Track, m []metric, tg Targets) []caption.Diagnostic {
	var out []caption.Diagnostic
	add := func(i int, c *caption.Cue, code, unit string, value, limit float64, msg string, args ...any) {
		d := caption.Diagnostic{Code: code, Line: c.SourceLine, CueIndex: &i, Message: fmt.Sprintf(msg, args...), Unit: unit}
		if !math.IsNaN(value) {
			d.Value = &value
		}
		if !math.IsNaN(limit) {
			d.Limit = &limit
		}
		out = append(out, d)
	}
	// Placement is judged by the rule itself: regions and ASS \pos, which
	// no fix moves, are remaining problems too.
	var placed []caption.Diagnostic
	if tg.ClampPlacement {
		placed = rules.PositionOutOfBounds{}.Check(t, rules.Params{})
	}
	nan := math.NaN()
	measure := tg.MaxLines > 0 || tg.MaxCharsPerLine > 0 || tg.MaxCPS > 0 || tg.BalanceLines || tg.EmptyCues || tg.MinDurationMs > 0
	var prevEnd int64
	for i := range t.Cues {
		c := &t.Cues[i]
		var cm metric
		if measure {
			if m != nil {
				cm = m[i]
			} else {
				cm = scan(c.Text)
			}
		}
		if tg.EmptyCues && cm.blank {
			add(i, c, codeEmpty, "", nan, nan, "the cue has no visible text")
		}
		if i > 0 {
			if tg.Overlaps && c.StartMs < prevEnd {
				add(i, c, codeOverlap, "ms", float64(prevEnd-c.StartMs), nan, "the cue starts %d ms before the previous cue ends", prevEnd-c.StartMs)
			}
			if g := c.StartMs - t.Cues[i-1].EndMs; tg.MinGapMs > 0 && g > 0 && g < tg.MinGapMs {
				add(i, c, codeGap, "ms", float64(g), float64(tg.MinGapMs), "the gap before the cue is %d ms", g)
			}
		}
		prevEnd = max(prevEnd, c.EndMs)
		d := c.EndMs - c.StartMs
		if tg.MinDurationMs > 0 && d < tg.MinDurationMs && !cm.blank {
			add(i, c, codeTooShort, "ms", float64(d), float64(tg.MinDurationMs), "the cue lasts %d ms", d)
		}
		if tg.MaxDurationMs > 0 && d > tg.MaxDurationMs {
			add(i, c, codeTooLong, "ms", float64(d), float64(tg.MaxDurationMs), "the cue lasts %d ms", d)
		}
		lines, longest := int(cm.lines), int(cm.longest)
		if tg.MaxLines > 0 && lines > tg.MaxLines {
			add(i, c, codeTooManyLines, "lines", float64(lines), float64(tg.MaxLines), "the cue has %d lines", lines)
		}
		if tg.MaxCharsPerLine > 0 && longest > tg.MaxCharsPerLine {
			add(i, c, codeLineTooLong, "chars", float64(longest), float64(tg.MaxCharsPerLine), "the longest line has %d characters", longest)
		}
		if tg.BalanceLines && lines == 2 && rules.PoorLineBreak(c.Text) {
			add(i, c, codeLineUnbalance, "", nan, nan, "the line break falls at a poor point (line_unbalanced)")
		}
		if tg.MaxCPS > 0 {
			if n := int(cm.chars); n > 0 && float64(n)*1000 > tg.MaxCPS*float64(d) {
				cps := nan // a cue of no duration reads at +Inf, which JSON cannot carry
				if d > 0 {
					cps = math.Round(float64(n)*100_000/float64(d)) / 100
				}
				add(i, c, codeReadingSpeed, "cps", cps, tg.MaxCPS, "%d characters in %d ms need %d ms at %g cps", n, d, needMs(n, tg.MaxCPS), tg.MaxCPS)
			}
		}
		for len(placed) > 0 && *placed[0].CueIndex == i {
			out = append(out, placed[0])
			placed = placed[1:]
		}
	}
	return append(out, placed...)
}
