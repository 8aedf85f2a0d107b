package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// DurationTooShort reports cues on screen for less than Params.Limit ms
// (EndMs minus StartMs), too short to be read even when short: Netflix
// asks for 833 ms (20 frames at 24 fps), DCMP for 2 s. A cue exactly at
// the limit passes. Value is the cue's duration in ms.
type DurationTooShort struct{}

// Code returns "duration_too_short".
func (DurationTooShort) Code() string { return CodeDurationTooShort }

// Unit returns "ms".
func (DurationTooShort) Unit() string { return UnitMs }

// Check reports each cue whose duration is below p.Limit ms.
func (DurationTooShort) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		d := t.Cues[i].EndMs - t.Cues[i].StartMs
		if float64(d) >= p.Limit {
			continue
		}
		msg := fmt.Sprintf("cue is on screen for %d ms, below the %s ms minimum", d, num(p.Limit))
		out = append(out, measured(finding(CodeDurationTooShort, t, i, msg), float64(d), p.Limit, UnitMs))
	}
	return out
}
