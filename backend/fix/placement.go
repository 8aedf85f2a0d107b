package fix

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

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
		if p == nil || !rules.OutOfFrame(*p) {
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
		switch pl.ResolvedPositionAlign() {
		case "line-left":
			most = 100 - pos
		case "line-right":
			most = pos
		default:
			most = 2 * min(pos, 100-pos)
		}
		if size > most+rules.BoundsTolerance {
			msg = append(msg, "size "+percent(size)+" reduced to "+percent(most)+" so the cue box fits the frame")
			*pl.Size = most
		}
	}
	return strings.Join(msg, "; ")
}

func percent(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "%" }
