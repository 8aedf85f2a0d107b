package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// ShotChangeNear reports a cue whose in-time or out-time falls within
// Params.Limit ms (half a second: 12 frames at 24 fps, the same time at
// the media's rate) of a shot change in Params.Media's video analysis
// without being on it: an in-time belongs on the cut's first frame, an
// out-time on it or [OutGapFrames] frames before it (Netflix Timed Text
// Style Guide, timing to shot changes). A cue that starts a few frames
// before a cut, or ends a few frames after one, crosses it and flashes
// over the new shot. It finds nothing without a video analysis or shot
// changes. One finding per time, the in-time's first; Value is the
// distance to the cut in ms. The snap-shot-changes fix moves them.
type ShotChangeNear struct{}

// Code returns "shot_change_near".
func (ShotChangeNear) Code() string { return CodeShotChangeNear }

// Unit returns "ms".
func (ShotChangeNear) Unit() string { return UnitMs }

// Check reports each in- and out-time near a shot change.
func (ShotChangeNear) Check(t *caption.Track, p Params) []caption.Diagnostic {
	if p.Media == nil || p.Media.Video == nil {
		return nil
	}
	v := p.Media.Video
	var out []caption.Diagnostic
	for i := range t.Cues {
		c := &t.Cues[i]
		for _, end := range []bool{false, true} {
			at := c.StartMs
			if end {
				at = c.EndMs
			}
			cut, d, ok := NearCut(at, end, v, p.Limit)
			if !ok {
				continue
			}
			msg := shotMessage(i, end, d, cut.TimeMs)
			out = append(out, measured(finding(CodeShotChangeNear, t, i, msg), float64(abs64(at-cut.TimeMs)), p.Limit, UnitMs))
		}
	}
	return out
}

// shotMessage says where cue i's in- or out-time sits, d frames from the
// cut at cutMs, and where it belongs.
func shotMessage(i int, end bool, d, cutMs int64) string {
	n, way := abs64(d), "before"
	if d > 0 {
		way = "after"
	}
	frames := fmt.Sprintf("%d frames", n)
	if n == 1 {
		frames = "1 frame"
	}
	at := caption.FormatClock(cutMs)
	switch {
	case !end && d < 0:
		return fmt.Sprintf("cue %d starts %s before the shot change at %s and crosses it; start it on the cut", i+1, frames, at)
	case !end:
		return fmt.Sprintf("cue %d starts %s after the shot change at %s; start it on the cut", i+1, frames, at)
	case d > 0:
		return fmt.Sprintf("cue %d ends %s after the shot change at %s and crosses it; end it %d frames before the cut", i+1, frames, at, OutGapFrames)
	}
	return fmt.Sprintf("cue %d ends %s %s the shot change at %s; end it %d frames before the cut", i+1, frames, way, at, OutGapFrames)
}
