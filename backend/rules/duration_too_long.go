package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// DurationTooLong reports cues on screen for more than Params.Limit ms
// (EndMs minus StartMs): Netflix caps a cue at 7 s, because a cue left up
// longer is re-read or hides a change of speaker. A cue exactly at the
// limit passes. Value is the cue's duration in ms.
type DurationTooLong struct{}

// Code returns "duration_too_long".
func (DurationTooLong) Code() string { return CodeDurationTooLong }

// Unit returns "ms".
func (DurationTooLong) Unit() string { return UnitMs }

// Check reports each cue whose duration is above p.Limit ms.
func (DurationTooLong) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		d := t.Cues[i].EndMs - t.Cues[i].StartMs
		if float64(d) <= p.Limit {
			continue
		}
		msg := fmt.Sprintf("cue is on screen for %d ms, above the %s ms maximum", d, num(p.Limit))
		out = append(out, measured(finding(CodeDurationTooLong, t, i, msg), float64(d), p.Limit, UnitMs))
	}
	return out
}
