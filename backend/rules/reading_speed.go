package rules

import "github.com/captionqa/captionqa/backend/caption"

// ReadingSpeedHigh reports cues whose reading speed, [CharactersPerSecond]
// (grapheme clusters of the text, spaces included, line breaks excluded,
// over the cue's duration), is above Params.Limit. The speed is rounded to
// 0.1 cps before it is compared; empty cues are [EmptyCue]'s business; a
// cue with text and no duration is reported without a Value.
type ReadingSpeedHigh struct{}

// Code returns "reading_speed_high".
func (ReadingSpeedHigh) Code() string { return CodeReadingSpeedHigh }

// Unit returns "cps".
func (ReadingSpeedHigh) Unit() string { return UnitCPS }

// Check reports each cue read faster than p.Limit characters per second.
func (ReadingSpeedHigh) Check(t *caption.Track, p Params) []caption.Diagnostic {
	return rateCheck{
		code: CodeReadingSpeedHigh, unit: UnitCPS, measure: CharactersPerSecond,
		label: "reading speed", per: "characters per second",
		noDuration: "cue has text but no duration to read it in; the limit is ", msgSize: 66,
	}.check(t, p)
}
