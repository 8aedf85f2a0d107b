package rules

import "github.com/captionqa/captionqa/backend/caption"

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
	return rateCheck{
		code: CodePresentationRateHigh, unit: UnitWPM, measure: WordsPerMinute,
		label: "presentation rate", per: "words per minute",
		noDuration: "cue has words but no duration to read them in; the limit is ", msgSize: 64,
	}.check(t, p)
}
