package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// GapTooSmall reports a cue followed, in presentation order, by the next
// cue after a gap (next StartMs minus this EndMs) greater than 0 and less
// than Params.Limit ms. Such a gap makes the screen flash blank between
// two cues; Netflix asks for 2 frames (84 ms at 24 fps). Touching cues
// (gap 0) are fine: that is chaining, the usual way to close a short gap.
// Overlaps (negative gaps) are [OverlappingCues]' business, and a gap
// exactly at the limit passes. The finding belongs to the earlier cue;
// Value is the gap in ms.
type GapTooSmall struct{}

// Code returns "gap_too_small".
func (GapTooSmall) Code() string { return CodeGapTooSmall }

// Unit returns "ms".
func (GapTooSmall) Unit() string { return UnitMs }

// Check reports each cue whose gap to the next cue is in (0, p.Limit).
func (GapTooSmall) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := 0; i+1 < len(t.Cues); i++ {
		gap := t.Cues[i+1].StartMs - t.Cues[i].EndMs
		if gap <= 0 || float64(gap) >= p.Limit {
			continue
		}
		// Messages count cues from 1, as editors and the UI do: the gap
		// follows cue i+1 and comes before cue i+2.
		msg := fmt.Sprintf("gap of %d ms before cue %d, below the %s ms minimum; chain the cues (gap 0) or widen the gap",
			gap, i+2, num(p.Limit))
		out = append(out, measured(finding(CodeGapTooSmall, t, i, msg), float64(gap), p.Limit, UnitMs))
	}
	return out
}
