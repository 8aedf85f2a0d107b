package fix

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// boundsTolerance is the position_out_of_bounds rule's slack, in percent,
// before a value is out of frame (rules.PositionOutOfBounds).
const boundsTolerance = 0.001

// clampPlacements brings cue settings that leave the frame back into it
// (tg.ClampPlacement). Placements are the track's own copies (see
// [cloneTrack]), so they are edited in place.
func (f *fixer) clampPlacements() {
	for i := range f.cues {
		if pl := f.cues[i].Placement; pl != nil {
			if msg := clampPlacement(pl); msg != "" {
				f.record(codePosition, f.srcOf(i), ActionClamp, "%s", msg)
			}
		}
	}
}

// clampPlacement clamps a percent Line, Position and Size into 0..100 and
// shrinks Size to the widest box the position and its alignment allow,
// the way a WebVTT renderer sizes a cue box. It returns what changed, ""
// for nothing. Values within the rule's tolerance, and NaN, stay.
func clampPlacement(pl *caption.Placement) string {
	var msg []string
	clamp := func(p *float64, what string) {
		if p == nil || !outside(*p) {
			return
		}
		v := min(max(*p, 0), 100)
		msg = append(msg, what+" "+percent(*p)+" clamped to "+percent(v))
		*p = v
	}
	if pl.LineUnit == caption.LineUnitPercent {
		clamp(pl.Line, "line")
	}
	clamp(pl.Position, "position")
	clamp(pl.Size, "size")
	if pl.Position != nil && pl.Size != nil {
		pos, size := *pl.Position, *pl.Size
		var most float64
		switch positionAlign(pl) {
		case "line-left":
			most = 100 - pos
		case "line-right":
			most = pos
		default:
			most = 2 * min(pos, 100-pos)
		}
		if size > most+boundsTolerance {
			msg = append(msg, "size "+percent(size)+" reduced to "+percent(most)+" so the cue box fits the frame")
			*pl.Size = most
		}
	}
	return strings.Join(msg, "; ")
}

// outside reports whether v lies outside 0..100 percent.
func outside(v float64) bool { return v < -boundsTolerance || v > 100+boundsTolerance }

func percent(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "%" }

// positionAlign resolves WebVTT's "auto" position alignment from the text
// alignment, as the rule does.
func positionAlign(pl *caption.Placement) string {
	switch pl.PositionAlign {
	case "line-left", "line-right", "center":
		return pl.PositionAlign
	}
	switch pl.Align {
	case "left", "start":
		return "line-left"
	case "right", "end":
		return "line-right"
	}
	return "center"
}
