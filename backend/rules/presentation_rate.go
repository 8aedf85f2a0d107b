package rules

import (
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// PresentationRateHigh reports cues whose presentation rate,
// [WordsPerMinute] ([Words] over the cue's duration, speaker IDs and sound
// labels counted as DCMP does), is above Params.Limit (DCMP: 160 wpm for
// upper-level education). As with [ReadingSpeedHigh] the rate is rounded
// to 0.1 wpm before the comparison, and a cue with words and no duration
// is reported without a Value.
type PresentationRateHigh struct{}

// Code returns "presentation_rate_high".
func (PresentationRateHigh) Code() string { return CodePresentationRateHigh }

// Unit returns "wpm".
func (PresentationRateHigh) Unit() string { return UnitWPM }

// Check reports each cue presented faster than p.Limit words per minute.
// Machine-made text can break the limit on most cues, so a first pass
// keeps the failing cues and the findings are made at their final size,
// their messages without fmt.
func (PresentationRateHigh) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var hits []hit
	for i := range t.Cues {
		wpm := WordsPerMinute(&t.Cues[i])
		if math.IsInf(wpm, 1) {
			hits = append(hits, hit{i, wpm})
			continue
		}
		// Below the limit by more than the rounding, no rounding is needed.
		if wpm <= p.Limit-0.05 {
			continue
		}
		if wpm = round1(wpm); wpm <= p.Limit {
			continue
		}
		hits = append(hits, hit{i, wpm})
	}
	if len(hits) == 0 {
		return nil
	}
	limit := num(p.Limit)
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var m messages
	m.grow(len(hits), 64)
	for _, h := range hits {
		if math.IsInf(h.v, 1) {
			m.buf = append(m.buf, "cue has words but no duration to read them in; the limit is "...)
			m.buf = append(m.buf, limit...)
			m.buf = append(m.buf, " words per minute"...)
			m.end()
			out = append(out, b.withLimit(b.finding(CodePresentationRateHigh, t, h.i, ""), p.Limit, UnitWPM))
			continue
		}
		m.buf = append(m.buf, "presentation rate "...)
		m.buf = appendRate(m.buf, h.v)
		m.buf = append(m.buf, " words per minute, above the "...)
		m.buf = append(m.buf, limit...)
		m.buf = append(m.buf, " limit"...)
		m.end()
		out = append(out, b.measured(b.finding(CodePresentationRateHigh, t, h.i, ""), h.v, p.Limit, UnitWPM))
	}
	m.set(out)
	return out
}
