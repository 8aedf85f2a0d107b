package rules

import (
	"strconv"
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

// Check reports each cue with a line above p.Limit characters. As in
// [PresentationRateHigh], a first pass keeps the failing cues.
func (LineTooLong) Check(t *caption.Track, p Params) []caption.Diagnostic {
	type longHit struct{ i, longest, at, over int }
	var hits []longHit
	for i := range t.Cues {
		text := t.Cues[i].Text
		// A text of n bytes has no line of more than n characters.
		if float64(len(text)) <= p.Limit {
			continue
		}
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
		if over > 0 {
			hits = append(hits, longHit{i, longest, at, over})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	limit := num(p.Limit)
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var m messages
	m.grow(len(hits), 60)
	for _, h := range hits {
		m.buf = append(m.buf, "line "...)
		m.buf = strconv.AppendInt(m.buf, int64(h.at), 10)
		m.buf = append(m.buf, " of the cue has "...)
		m.buf = strconv.AppendInt(m.buf, int64(h.longest), 10)
		m.buf = append(m.buf, " characters, above the "...)
		m.buf = append(m.buf, limit...)
		m.buf = append(m.buf, " limit"...)
		if h.over > 1 {
			m.buf = append(m.buf, " ("...)
			m.buf = strconv.AppendInt(m.buf, int64(h.over), 10)
			m.buf = append(m.buf, " lines are too long)"...)
		}
		m.end()
		out = append(out, b.measured(b.finding(CodeLineTooLong, t, h.i, ""), float64(h.longest), p.Limit, UnitChars))
	}
	m.set(out)
	return out
}
