package rules

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// onsetWindowMs is how far from a cue's start [Captioned] looks for the
// speech onset of a cue that overlaps no speech: a cue further than that
// from any speech captions none (caption_without_speech), rather than
// being early or late.
const onsetWindowMs = 1000

// speechOf returns the speech of p's media, false when the media or its
// audio analysis is missing.
func speechOf(p Params) ([]analysis.Segment, bool) {
	if p.Media == nil || p.Media.Audio == nil {
		return nil, false
	}
	return p.Media.Audio.Speech, true
}

// cueSpans returns the display times of t's cues that show for some
// time.
func cueSpans(t *caption.Track) []analysis.Span {
	out := make([]analysis.Span, 0, len(t.Cues))
	for i := range t.Cues {
		if c := &t.Cues[i]; c.EndMs > c.StartMs {
			out = append(out, analysis.Span{StartMs: c.StartMs, EndMs: c.EndMs})
		}
	}
	return out
}

// SyncOf estimates how t's times map onto the speech of m
// ([analysis.EstimateSync]) from its cues but sound and music labels
// ([NonSpeech]); false when m has no audio analysis, either
// side is empty, or the estimate's confidence is under
// [analysis.SyncConfident], too low to act on.
func SyncOf(t *caption.Track, m *analysis.Analysis) (analysis.Sync, bool) {
	speech, ok := speechOf(Params{Media: m})
	if !ok {
		return analysis.Sync{}, false
	}
	// Sound and music labels caption no speech: left in, they would
	// pull the captions towards noises the speech detector does not hear.
	spoken := make([]analysis.Span, 0, len(t.Cues))
	for i := range t.Cues {
		if c := &t.Cues[i]; c.EndMs > c.StartMs && !NonSpeech(c.Text) {
			spoken = append(spoken, analysis.Span{StartMs: c.StartMs, EndMs: c.EndMs})
		}
	}
	s, ok := analysis.EstimateSync(speech, spoken)
	if !ok || s.Confidence < analysis.SyncConfident {
		return analysis.Sync{}, false
	}
	return s, true
}

// Captioned returns, for each cue of t, the index in speech of the
// segment whose onset the cue captions, -1 for none: the segment it
// overlaps most or, overlapping none, the one whose onset is nearest its
// start within onsetWindowMs. A cue given the segment of the cue before
// it continues that speech and has no onset of its own (-1): a long
// utterance runs over several cues.
//
// With sync (a confident estimate, [SyncOf]) cues are paired with
// speech where the estimate maps them: on a track off as a whole by more
// than its gaps, a cue overlaps the next cue's speech more than its own,
// and the pairing would call a late cue early.
func Captioned(t *caption.Track, speech []analysis.Segment, sync *analysis.Sync) []int {
	out := make([]int, len(t.Cues))
	prev := -1
	for i := range t.Cues {
		c := &t.Cues[i]
		if sync != nil {
			c = &caption.Cue{StartMs: sync.Map(c.StartMs), EndMs: sync.Map(c.EndMs)}
		}
		best, most := -1, int64(0)
		j := sort.Search(len(speech), func(j int) bool { return speech[j].EndMs > c.StartMs })
		for ; j < len(speech) && speech[j].StartMs < c.EndMs; j++ {
			if o := min(c.EndMs, speech[j].EndMs) - max(c.StartMs, speech[j].StartMs); o > most {
				best, most = j, o
			}
		}
		if best < 0 {
			k := sort.Search(len(speech), func(j int) bool { return speech[j].StartMs >= c.StartMs })
			near := int64(onsetWindowMs + 1)
			for _, j := range []int{k - 1, k} {
				if j >= 0 && j < len(speech) {
					if d := abs64(speech[j].StartMs - c.StartMs); d < near {
						best, near = j, d
					}
				}
			}
		}
		out[i] = best
		if best >= 0 && best == prev {
			out[i] = -1
		}
		prev = best
	}
	return out
}

// NonSpeech reports whether a cue's text is a sound or music label, which
// captions no speech: text that is only bracketed labels ("[door
// slams]", "(laughs)") and punctuation, or that carries a music note.
func NonSpeech(text string) bool {
	if strings.ContainsAny(text, "♪♫") {
		return true
	}
	depth := 0
	for _, r := range text {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			depth = max(depth-1, 0)
		default:
			if depth == 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return strings.TrimSpace(text) != ""
}

// shotWindow is the window of shot_change_near and the shot-change snap
// in frames of rate: limitMs (half a second: Netflix's 12 frames at 24
// fps) at the media's rate, rounded.
func shotWindow(limitMs float64, rate analysis.Rational) int64 {
	return int64(math.Round(limitMs * rate.FPS() / 1000))
}

// frameNear returns the frame boundary nearest ms at rate: cue times are
// frame times rounded to the millisecond, either way.
func frameNear(ms int64, rate analysis.Rational) int64 {
	return int64(math.Round(float64(ms) * float64(rate.Num) / (1000 * float64(rate.Den))))
}

// OutGapFrames is how many frames before a shot change a cue's out-time
// belongs (Netflix Timed Text Style Guide, timing to shot changes): the
// two-frame gap that keeps the text from spilling onto the new shot.
const OutGapFrames = 2

// NearCut returns the shot change of v the time ms is within limitMs
// ([shotWindow] frames) of without being on it, and how many frames from
// it ms is (negative before it); false when there is none. An in-time is
// on a cut at its first frame; an out-time (out) on the cut's first frame
// or [OutGapFrames] before it.
func NearCut(ms int64, out bool, v *analysis.Video, limitMs float64) (analysis.ShotChange, int64, bool) {
	if v == nil || len(v.ShotChanges) == 0 || v.FrameRate.Num <= 0 || v.FrameRate.Den <= 0 {
		return analysis.ShotChange{}, 0, false
	}
	f := frameNear(ms, v.FrameRate)
	k := nearestCut(v.ShotChanges, f)
	c := v.ShotChanges[k]
	d := f - c.Frame
	if d == 0 || (out && d == -OutGapFrames) || abs64(d) > shotWindow(limitMs, v.FrameRate) {
		return analysis.ShotChange{}, 0, false
	}
	return c, d, true
}

// nearestCut returns the index of the shot change nearest frame f, -1 for
// none.
func nearestCut(cuts []analysis.ShotChange, f int64) int {
	k := sort.Search(len(cuts), func(j int) bool { return cuts[j].Frame >= f })
	best := -1
	for _, j := range []int{k - 1, k} {
		if j >= 0 && j < len(cuts) && (best < 0 || abs64(cuts[j].Frame-f) < abs64(cuts[best].Frame-f)) {
			best = j
		}
	}
	return best
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
