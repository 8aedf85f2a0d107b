package rules

import (
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// ReadingSpeedHigh reports cues whose reading speed, [CharactersPerSecond]
// (grapheme clusters of the text, spaces included, line breaks excluded,
// over the cue's duration), is above Params.Limit. The speed is rounded to
// 0.1 cps before it is compared, the precision the report shows, so a
// finding never reads "20.0, above the 20 limit" and a cue a fix brought
// to the limit passes. Empty cues are [EmptyCue]'s business. A cue with
// text and no duration is reported without a Value, since an infinite
// speed has no JSON form.
type ReadingSpeedHigh struct{}

// Code returns "reading_speed_high".
func (ReadingSpeedHigh) Code() string { return CodeReadingSpeedHigh }

// Unit returns "cps".
func (ReadingSpeedHigh) Unit() string { return UnitCPS }

// Check reports each cue read faster than p.Limit characters per second.
// As in [PresentationRateHigh], a first pass keeps the failing cues.
func (ReadingSpeedHigh) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var hits []hit
	for i := range t.Cues {
		cps := CharactersPerSecond(&t.Cues[i])
		if math.IsInf(cps, 1) {
			hits = append(hits, hit{i, cps})
			continue
		}
		// Below the limit by more than the rounding, no rounding is needed.
		if cps <= p.Limit-0.05 {
			continue
		}
		if cps = round1(cps); cps <= p.Limit {
			continue
		}
		hits = append(hits, hit{i, cps})
	}
	if len(hits) == 0 {
		return nil
	}
	limit := num(p.Limit)
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var m messages
	m.grow(len(hits), 66)
	for _, h := range hits {
		if math.IsInf(h.v, 1) {
			m.buf = append(m.buf, "cue has text but no duration to read it in; the limit is "...)
			m.buf = append(m.buf, limit...)
			m.buf = append(m.buf, " characters per second"...)
			m.end()
			out = append(out, b.withLimit(b.finding(CodeReadingSpeedHigh, t, h.i, ""), p.Limit, UnitCPS))
			continue
		}
		m.buf = append(m.buf, "reading speed "...)
		m.buf = appendRate(m.buf, h.v)
		m.buf = append(m.buf, " characters per second, above the "...)
		m.buf = append(m.buf, limit...)
		m.buf = append(m.buf, " limit"...)
		m.end()
		out = append(out, b.measured(b.finding(CodeReadingSpeedHigh, t, h.i, ""), h.v, p.Limit, UnitCPS))
	}
	m.set(out)
	return out
}
