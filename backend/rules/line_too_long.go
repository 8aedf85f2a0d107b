package rules

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// LineTooLong reports cues with a line longer than Params.Limit
// [Characters] (Netflix: 42, DCMP: 32). One finding per cue: Value is the
// longest line's length and the message names that line (1-based within
// the cue) and how many lines are too long. A line exactly at the limit
// passes.
type LineTooLong struct{}

// Code returns "line_too_long".
func (LineTooLong) Code() string { return CodeLineTooLong }

// Unit returns "chars".
func (LineTooLong) Unit() string { return UnitChars }

// Check reports each cue with a line above p.Limit characters.
func (LineTooLong) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		text := t.Cues[i].Text
		longest, at, over := 0, 0, 0
		for line := 1; ; line++ {
			cur, rest, more := strings.Cut(text, "\n")
			// A line of n bytes has at most n characters: short lines are
			// passed without counting.
			if float64(len(cur)) > p.Limit {
				if n := Characters(cur); float64(n) > p.Limit {
					over++
					if n > longest {
						longest, at = n, line
					}
				}
			}
			if !more {
				break
			}
			text = rest
		}
		if over == 0 {
			continue
		}
		msg := fmt.Sprintf("line %d of the cue has %d characters, above the %s limit", at, longest, num(p.Limit))
		if over > 1 {
			msg += fmt.Sprintf(" (%d lines are too long)", over)
		}
		out = append(out, measured(finding(CodeLineTooLong, t, i, msg), float64(longest), p.Limit, UnitChars))
	}
	return out
}
