package fix

import (
	"fmt"
	"math"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// resyncMinMs is the least shift [fixer.resync] applies: the resolution
// of the signals the offset is estimated from (analysis.EstimateSync).
const resyncMinMs = 10

// resync moves every cue to where the sync estimate against tg.Media's
// speech puts it (rules.SyncOf: start·ratio + offset, clamped at 0),
// when the estimate is confident and moves something: a ratio other
// than 1, or a shift of at least resyncMinMs. Each moved cue is
// reported, under sync_drift when the times were stretched, else under
// sync_offset.
func (f *fixer) resync() {
	s, ok := rules.SyncOf(&caption.Track{Cues: f.cues}, f.tg.Media)
	if !ok || (s.Ratio == 1 && math.Abs(s.OffsetMs) < resyncMinMs) {
		return
	}
	code, how := codeSyncOffset, ""
	if s.Ratio != 1 {
		code, how = codeSyncDrift, fmt.Sprintf(", stretched by %.5f", s.Ratio)
	}
	for i := range f.cues {
		c := &f.cues[i]
		st, en := max(s.Map(c.StartMs), 0), max(s.Map(c.EndMs), 0)
		if st == c.StartMs && en == c.EndMs {
			continue
		}
		f.record(code, f.srcOf(i), ActionResync, "moved from %s–%s to %s–%s to meet the speech (shift %d ms%s)",
			clock(c.StartMs), clock(c.EndMs), clock(st), clock(en), int64(math.Round(s.OffsetMs)), how)
		c.StartMs, c.EndMs = st, en
	}
}

// snapShots moves in- and out-times near a shot change of tg.Media's
// video onto it (rules.NearCut, within tg.ShotWindowMs): an in-time onto
// the cut's first frame, an out-time to two frames before it (Netflix
// Timed Text Style Guide, timing to shot changes). A move is made only
// when it keeps the cue at least the minimum duration (tg.MinDurationMs,
// else zeroCueMinMs) or does not shorten it, keeps it from running into
// its neighbours, and leaves a gap of two frames (or the preset's gap,
// [fixer.snapGapMs], when more) to them or none (a cue ending on the cut chained to one starting
// there). Out-times are
// snapped, then in-times, then out-times again: an out-time may reach
// two frames before a cut only once the next cue's in-time is on it.
func (f *fixer) snapShots() {
	if f.tg.Media == nil || f.tg.Media.Video == nil {
		return
	}
	window := f.tg.ShotWindowMs
	if window <= 0 {
		window = 500
	}
	f.snapEnds(window)
	f.snapStarts(window)
	f.snapEnds(window)
}

// snapGapMs is the preset's least gap a snap keeps: the larger of
// tg.MinGapMs and tg.ShotGapMs.
func (f *fixer) snapGapMs() int64 { return max(f.tg.MinGapMs, f.tg.ShotGapMs) }

// minKeepMs is the duration a snap may not shorten a cue below.
func (f *fixer) minKeepMs() int64 {
	if f.tg.MinDurationMs > 0 {
		return f.tg.MinDurationMs
	}
	return zeroCueMinMs
}

// snapEnds moves each out-time near a cut to two frames before it.
func (f *fixer) snapEnds(window float64) {
	v := f.tg.Media.Video
	for i := range f.cues {
		c := &f.cues[i]
		cut, _, ok := rules.NearCut(c.EndMs, true, v, window)
		if !ok || cut.Frame < rules.OutGapFrames {
			continue
		}
		to := v.FrameRate.TimeOf(cut.Frame - rules.OutGapFrames)
		if g := f.snapGapMs(); g > 0 {
			// Two frames in ms may round a millisecond under the
			// preset's gap (83 against 84 at 24 fps).
			to = min(to, cut.TimeMs-g)
		}
		if to <= c.StartMs || (to < c.EndMs && to-c.StartMs < f.minKeepMs()) {
			continue
		}
		if i+1 < len(f.cues) && to > c.EndMs && f.cues[i+1].StartMs < cut.TimeMs {
			// Later, the end would come within two frames of the next cue.
			continue
		}
		f.record(codeShotChangeNear, f.srcOf(i), ActionSnapEnd, "end moved from %s to %s, %d frames before the shot change at %s",
			clock(c.EndMs), clock(to), rules.OutGapFrames, clock(cut.TimeMs))
		c.EndMs = to
	}
}

// snapStarts moves each in-time near a cut onto it.
func (f *fixer) snapStarts(window float64) {
	v := f.tg.Media.Video
	// Two frames, a millisecond under for rounding, or the preset's gap
	// when it asks for more.
	need := max(int64(math.Round(rules.OutGapFrames*v.FrameRate.FrameMs()))-1, f.snapGapMs())
	for i := range f.cues {
		c := &f.cues[i]
		cut, _, ok := rules.NearCut(c.StartMs, false, v, window)
		if !ok {
			continue
		}
		to := cut.TimeMs
		if to >= c.EndMs || (to > c.StartMs && c.EndMs-to < f.minKeepMs()) {
			continue
		}
		if i > 0 {
			// Chained on the cut, or far enough from the cue before.
			if prev := f.cues[i-1].EndMs; prev != to && to-prev < need {
				continue
			}
		}
		f.record(codeShotChangeNear, f.srcOf(i), ActionSnapStart, "start moved from %s to %s, onto the shot change",
			clock(c.StartMs), clock(to))
		c.StartMs = to
	}
}
