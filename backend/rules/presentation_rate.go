package rules

import (
	"fmt"
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
func (PresentationRateHigh) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		wpm := WordsPerMinute(&t.Cues[i])
		if math.IsInf(wpm, 1) {
			msg := fmt.Sprintf("cue has words but no duration to read them in; the limit is %s words per minute", num(p.Limit))
			out = append(out, withLimit(finding(CodePresentationRateHigh, t, i, msg), p.Limit, UnitWPM))
			continue
		}
		// Below the limit by more than the rounding, no rounding is needed.
		if wpm <= p.Limit-0.05 {
			continue
		}
		if wpm = round1(wpm); wpm <= p.Limit {
			continue
		}
		msg := fmt.Sprintf("presentation rate %.1f words per minute, above the %s limit", wpm, num(p.Limit))
		out = append(out, measured(finding(CodePresentationRateHigh, t, i, msg), wpm, p.Limit, UnitWPM))
	}
	return out
}
