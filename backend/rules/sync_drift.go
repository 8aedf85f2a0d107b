package rules

import (
	"fmt"
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// SyncDrift reports a track timed at another frame rate than the
// programme's: [analysis.EstimateSync] aligns the captions best with
// Params.Media's speech after stretching their times by the ratio of two
// of the usual rates (25/23.976, 30/29.97, ...), so they drift further
// off as the programme goes on. It finds nothing without an audio
// analysis or a confident estimate ([SyncOf]). The one finding is
// track-wide and has no threshold; the message gives the ratio, the
// drift by the last cue and the offset. The resync fix applies both.
type SyncDrift struct{}

// Code returns "sync_drift".
func (SyncDrift) Code() string { return CodeSyncDrift }

// Unit returns "": the rule has no threshold.
func (SyncDrift) Unit() string { return "" }

// Check reports a ratio other than 1.
func (SyncDrift) Check(t *caption.Track, p Params) []caption.Diagnostic {
	s, ok := SyncOf(t, p.Media)
	if !ok || s.Ratio == 1 {
		return nil
	}
	var last int64
	for i := range t.Cues {
		last = max(last, t.Cues[i].EndMs)
	}
	drift := math.Round(float64(last) * (s.Ratio - 1))
	msg := fmt.Sprintf("the captions drift against the speech: their times need stretching by %.5f (timed at another frame rate, e.g. %s), %s ms by the last cue, then shifting by %s ms (confidence %.2f)",
		s.Ratio, rates(s.Ratio), num(drift), num(math.Round(s.OffsetMs)), s.Confidence)
	return []caption.Diagnostic{{Code: CodeSyncDrift, Message: msg}}
}

// rates names a pair of frame rates whose ratio is r: captions timed at
// the first rate (a PAL edit, 25) on media at the second (the film, 23.976)
// need their times multiplied by first/second.
func rates(r float64) string {
	names := []struct {
		fps  float64
		name string
	}{{24000.0 / 1001, "23.976"}, {24, "24"}, {25, "25"}, {30000.0 / 1001, "29.97"}, {30, "30"}}
	for _, a := range names {
		for _, b := range names {
			if math.Abs(a.fps/b.fps-r) < 1e-9 {
				return a.name + " fps captions on " + b.name + " fps media"
			}
		}
	}
	return fmt.Sprintf("a ratio of %.5f", r)
}
