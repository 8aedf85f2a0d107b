package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// OverlappingCues reports each cue that starts before an earlier cue has
// ended. "Earlier cue" is the one that, among all cues before it in
// presentation order, ends last, so a long cue overlapping several short
// ones is caught even when they are not neighbours. The finding belongs to
// the later cue; its Value is the overlap in ms (the time both cues are
// on screen: up to the earlier cue's end or the later cue's own end,
// whichever comes first) and the message names both cue indices.
//
// Params.Limit is the overlap tolerated, in ms; it is normally 0, so any
// overlap is reported. A zero-length cue inside another overlaps by 0 ms
// and is not reported.
type OverlappingCues struct{}

// Code returns "overlapping_cues".
func (OverlappingCues) Code() string { return CodeOverlappingCues }

// Unit returns "ms".
func (OverlappingCues) Unit() string { return UnitMs }

// Check reports overlaps longer than p.Limit ms, one per later cue.
func (OverlappingCues) Check(t *caption.Track, p Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	last := -1 // the cue seen so far that ends last
	for i := range t.Cues {
		c := &t.Cues[i]
		if last >= 0 {
			e := &t.Cues[last]
			if overlap := min(e.EndMs, c.EndMs) - c.StartMs; overlap > 0 && float64(overlap) > p.Limit {
				// Messages count cues from 1, as editors and the UI do;
				// CueIndex stays 0-based for programs.
				msg := fmt.Sprintf("cues %d and %d overlap by %d ms: cue %d starts at %s, before cue %d ends at %s",
					last+1, i+1, overlap, i+1, caption.FormatClock(c.StartMs), last+1, caption.FormatClock(e.EndMs))
				out = append(out, measured(finding(CodeOverlappingCues, t, i, msg), float64(overlap), p.Limit, UnitMs))
			}
		}
		if last < 0 || c.EndMs > t.Cues[last].EndMs {
			last = i
		}
	}
	return out
}
