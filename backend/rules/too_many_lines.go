package rules

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// TooManyLines reports cues with more display lines than Params.Limit
// (Netflix, BBC and DCMP: 2). Lines are what "\n" separates in the cue
// text, blank ones included because a renderer shows them; an empty text
// has no lines. A cue exactly at the limit passes. Value is the number of
// lines.
type TooManyLines struct{}

// Code returns "too_many_lines".
func (TooManyLines) Code() string { return CodeTooManyLines }

// Unit returns "lines".
func (TooManyLines) Unit() string { return UnitLines }

// Check reports each cue with more than p.Limit lines.
func (TooManyLines) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	var b batch
	for i := range t.Cues {
		n := lineCount(t.Cues[i].Text)
		if float64(n) <= p.Limit {
			continue
		}
		msg := "cue has " + strconv.Itoa(n) + " lines, above the " + num(p.Limit) + " line limit"
		out = append(out, b.measured(b.finding(CodeTooManyLines, t, i, msg), float64(n), p.Limit, UnitLines))
	}
	return out
}

// lineCount is the number of display lines of IR text.
func lineCount(text string) int {
	if text == "" {
		return 0
	}
	return strings.Count(text, "\n") + 1
}
