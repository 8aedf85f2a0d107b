package rules

import (
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// rateCheck is what [ReadingSpeedHigh] and [PresentationRateHigh] share: a
// per-cue rate over the cue's duration, rounded to 0.1 before it is
// compared (the precision the report shows, so a finding never reads
// "20.0, above the 20 limit" and a cue a fix brought to the limit passes),
// and a cue with content but no duration reported without a Value, since an
// infinite rate has no JSON form.
type rateCheck struct {
	code, unit string
	measure    func(*caption.Cue) float64
	// label names the rate ("reading speed"), per its unit in words
	// ("characters per second"); noDuration is the message's start for a
	// cue without duration, ending before the limit.
	label, per, noDuration string
	// msgSize is a typical message length, to size the message buffer.
	msgSize int
}

// check reports each cue whose rate is above p.Limit. Machine-made text can
// break the limit on most cues, so a first pass keeps the failing cues and
// the findings are made at their final size, their messages without fmt.
func (r rateCheck) check(t *caption.Track, p Params) []caption.Diagnostic {
	var hits []hit
	for i := range t.Cues {
		v := r.measure(&t.Cues[i])
		if math.IsInf(v, 1) {
			hits = append(hits, hit{i, v})
			continue
		}
		// Below the limit by more than the rounding, no rounding is needed.
		if v <= p.Limit-0.05 {
			continue
		}
		if v = round1(v); v <= p.Limit {
			continue
		}
		hits = append(hits, hit{i, v})
	}
	if len(hits) == 0 {
		return nil
	}
	limit := num(p.Limit)
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var m messages
	m.grow(len(hits), r.msgSize)
	for _, h := range hits {
		if math.IsInf(h.v, 1) {
			m.buf = append(m.buf, r.noDuration...)
			m.buf = append(m.buf, limit...)
			m.buf = append(m.buf, ' ')
			m.buf = append(m.buf, r.per...)
			m.end()
			out = append(out, b.withLimit(b.finding(r.code, t, h.i, ""), p.Limit, r.unit))
			continue
		}
		m.buf = append(m.buf, r.label...)
		m.buf = append(m.buf, ' ')
		m.buf = appendRate(m.buf, h.v)
		m.buf = append(m.buf, ' ')
		m.buf = append(m.buf, r.per...)
		m.buf = append(m.buf, ", above the "...)
		m.buf = append(m.buf, limit...)
		m.buf = append(m.buf, " limit"...)
		m.end()
		out = append(out, b.measured(b.finding(r.code, t, h.i, ""), h.v, p.Limit, r.unit))
	}
	m.set(out)
	return out
}
