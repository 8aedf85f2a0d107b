package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// PositionOutOfBounds reports cues placed partly or wholly off the frame,
// which FCC 79.1 placement and every player's "not off the screen edge"
// rule forbid. It checks, in this order, and reports the first problem of
// each cue:
//
//   - a Placement.Line in percent outside 0..100 (a line number is not
//     checked: it depends on the frame height);
//   - a Placement.Position or Placement.Size outside 0..100;
//   - a cue box that runs off the frame: with both Position and Size set,
//     Position+Size above 100 for position-align line-left, Position-Size
//     below 0 for line-right, and either half of Size past an edge for
//     center. An unset position-align follows the text alignment as in
//     WebVTT (left and start: line-left, right and end: line-right, else
//     center);
//   - a Placement.Region that names no entry of [caption.Track.Regions],
//     or names a region that does not fit in the frame. The region box is
//     [caption.Region.Box]: Width × Height percent of the frame (Height
//     unset: Lines × 6, the 6vh a WebVTT region line takes), placed so
//     that its anchor point (percent of the box) sits on the viewport
//     anchor (percent of the frame);
//   - for ASS scripts, a \pos outside the script's PlayResX × PlayResY
//     frame, each axis checked only when the script declares it (the ass
//     reader keeps PlayResX/Y in Track.Ext["ass"] and \pos in
//     Cue.Ext["ass"]).
//
// A 0.001-percent tolerance absorbs rounding in converted files.
type PositionOutOfBounds struct{}

// Code returns "position_out_of_bounds".
func (PositionOutOfBounds) Code() string { return CodePositionOutOfBounds }

// Unit returns "": the bounds are the frame, not a preset threshold.
func (PositionOutOfBounds) Unit() string { return "" }

// BoundsTolerance is the slack, in percent, before a value is out of
// frame. The fix that clamps placements uses it too, so what it leaves
// passes the rule.
const BoundsTolerance = 0.001

// Check reports each cue placed off the frame.
func (PositionOutOfBounds) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	regions := regionChecker{t: t}
	frame := assFrameOf(t)
	for i := range t.Cues {
		c := &t.Cues[i]
		msg := ""
		if pl := c.Placement; pl != nil {
			msg = placementProblem(pl)
			if msg == "" && pl.Region != "" {
				msg = regions.problem(pl.Region)
			}
		}
		if msg == "" && frame.declared() && c.Ext != nil {
			msg = frame.posProblem(c.Ext["ass"])
		}
		if msg != "" {
			out = append(out, finding(CodePositionOutOfBounds, t, i, msg))
		}
	}
	return out
}

// OutOfFrame reports whether v lies outside 0..100 percent by more than
// [BoundsTolerance].
func OutOfFrame(v float64) bool { return v < -BoundsTolerance || v > 100+BoundsTolerance }

// placementProblem describes the first cue-setting problem of pl.
func placementProblem(pl *caption.Placement) string {
	if pl.Line != nil && pl.LineUnit == caption.LineUnitPercent && OutOfFrame(*pl.Line) {
		return fmt.Sprintf("line %s%% is outside the frame (0%% to 100%%)", num(*pl.Line))
	}
	if pl.Position != nil && OutOfFrame(*pl.Position) {
		return fmt.Sprintf("position %s%% is outside the frame (0%% to 100%%)", num(*pl.Position))
	}
	if pl.Size != nil && OutOfFrame(*pl.Size) {
		return fmt.Sprintf("size %s%% is outside 0%% to 100%% of the frame", num(*pl.Size))
	}
	if pl.Position == nil || pl.Size == nil {
		return ""
	}
	pos, size := *pl.Position, *pl.Size
	var left, right float64
	switch align := pl.ResolvedPositionAlign(); align {
	case "line-left":
		left, right = pos, pos+size
	case "line-right":
		left, right = pos-size, pos
	default:
		left, right = pos-size/2, pos+size/2
	}
	if left < -BoundsTolerance || right > 100+BoundsTolerance {
		return fmt.Sprintf("the cue box (position %s%%, size %s%%, %s) spans %s%% to %s%%, past the frame edge",
			num(pos), num(size), pl.ResolvedPositionAlign(), num(left), num(right))
	}
	return ""
}

// regionChecker judges the regions cues name, each region once. Its maps
// are built on the first cue that names a region, so tracks without
// regions allocate nothing.
type regionChecker struct {
	t      *caption.Track
	byID   map[string]int
	judged map[string]string
}

// problem describes what is wrong with the region id, "" if nothing.
func (rc *regionChecker) problem(id string) string {
	if rc.byID == nil {
		rc.byID = make(map[string]int, len(rc.t.Regions))
		rc.judged = make(map[string]string)
		for k := len(rc.t.Regions) - 1; k >= 0; k-- {
			rc.byID[rc.t.Regions[k].ID] = k // the first definition wins
		}
	}
	if msg, ok := rc.judged[id]; ok {
		return msg
	}
	msg := ""
	if k, ok := rc.byID[id]; !ok {
		msg = fmt.Sprintf("region %q is not defined in the track", clip(id))
	} else {
		msg = regionProblem(&rc.t.Regions[k])
	}
	rc.judged[id] = msg
	return msg
}

// regionProblem describes how region r leaves the frame, "" if it fits.
func regionProblem(r *caption.Region) string {
	left, top, w, h := r.Box()
	right, bottom := left+w, top+h
	if left < -BoundsTolerance || top < -BoundsTolerance || right > 100+BoundsTolerance || bottom > 100+BoundsTolerance {
		return fmt.Sprintf("region %q spans %s%%–%s%% across and %s%%–%s%% down the frame, past its edge",
			clip(r.ID), num(round3(left)), num(round3(right)), num(round3(top)), num(round3(bottom)))
	}
	return ""
}

// round3 rounds to 0.001 so messages do not show floating-point noise.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// assFrame is an ASS script's coordinate space, from Track.Ext["ass"]; a
// zero side is undeclared.
type assFrame struct {
	PlayResX int `json:"playResX"`
	PlayResY int `json:"playResY"`
}

func assFrameOf(t *caption.Track) assFrame {
	var f assFrame
	if raw, ok := t.Ext["ass"]; ok {
		if json.Unmarshal(raw, &f) != nil {
			return assFrame{}
		}
	}
	return f
}

func (f assFrame) declared() bool { return f.PlayResX > 0 || f.PlayResY > 0 }

// posProblem describes a \pos of the cue ext raw that falls outside f.
func (f assFrame) posProblem(raw json.RawMessage) string {
	// Most ASS events carry no \pos; the byte search spares them a decode.
	if !bytes.Contains(raw, []byte(`"pos"`)) {
		return ""
	}
	var e struct {
		Pos *[2]float64 `json:"pos"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Pos == nil {
		return ""
	}
	x, y := e.Pos[0], e.Pos[1]
	if f.PlayResX > 0 && (x < 0 || x > float64(f.PlayResX)) || f.PlayResY > 0 && (y < 0 || y > float64(f.PlayResY)) {
		return fmt.Sprintf(`\pos(%s,%s) is outside the script's %d×%d frame (PlayResX×PlayResY)`,
			num(x), num(y), f.PlayResX, f.PlayResY)
	}
	return ""
}
