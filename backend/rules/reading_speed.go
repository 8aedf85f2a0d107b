package rules

import (
	"fmt"
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
func (ReadingSpeedHigh) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		cps := CharactersPerSecond(&t.Cues[i])
		if math.IsInf(cps, 1) {
			msg := fmt.Sprintf("cue has text but no duration to read it in; the limit is %s characters per second", num(p.Limit))
			out = append(out, withLimit(finding(CodeReadingSpeedHigh, t, i, msg), p.Limit, UnitCPS))
			continue
		}
		// Below the limit by more than the rounding, no rounding is needed.
		if cps <= p.Limit-0.05 {
			continue
		}
		if cps = round1(cps); cps <= p.Limit {
			continue
		}
		msg := fmt.Sprintf("reading speed %.1f characters per second, above the %s limit", cps, num(p.Limit))
		out = append(out, measured(finding(CodeReadingSpeedHigh, t, i, msg), cps, p.Limit, UnitCPS))
	}
	return out
}
