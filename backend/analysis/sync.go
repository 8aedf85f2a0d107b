package analysis

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// Span is a stretch of time, from StartMs to EndMs: a cue's display, as
// [EstimateSync] reads the captions.
type Span struct {
	StartMs, EndMs int64
}

// Sync is how a caption track's times map onto the programme's: a
// caption time t belongs at t·Ratio + OffsetMs (see [Sync.Map]).
type Sync struct {
	// OffsetMs is the shift to add to every (stretched) caption time:
	// negative when the captions come after the speech and must move
	// earlier.
	OffsetMs float64
	// Ratio stretches caption times before the shift: 1 when the captions
	// were timed at the programme's frame rate, else the ratio of two of
	// the usual rates (25/23.976 for captions timed at 23.976 fps played
	// at 25).
	Ratio float64
	// Confidence (0 to 1) is how far the best alignment's agreement of
	// speech and captions rises above chance: 0 is no better than a
	// random shift, 1 every caption over speech (see [EstimateSync]).
	Confidence float64
}

// Map returns where the caption time ms belongs on the programme's clock,
// rounded to the millisecond.
func (s Sync) Map(ms int64) int64 {
	return int64(math.Round(float64(ms)*s.Ratio + s.OffsetMs))
}

const (
	// syncStepMs is the resolution of the correlated signals: 100 Hz.
	syncStepMs = 10
	// SyncWindowMs bounds the offset [EstimateSync] searches, either way.
	SyncWindowMs = 60_000
	// ratioMargin is how much better, relatively, a stretched alignment
	// must correlate than the unstretched one to be chosen: a drift is
	// claimed only when it clearly explains the captions better.
	ratioMargin = 0.02
	// SyncConfident is the confidence below which an estimate is not
	// acted on: neither reported (sync_offset, sync_drift) nor applied
	// (the resync fix). Captions of another programme score about 0.1
	// (TestEstimateSyncUnrelated); captions of this one, however far
	// off, well above 0.5.
	SyncConfident = 0.4
)

// syncRates are the frame rates whose ratios [EstimateSync] tries, as
// ffsubsync does: film, PAL and NTSC, drop-frame or not.
func syncRates() []float64 { return []float64{24000.0 / 1001, 24, 25, 30000.0 / 1001, 30} }

// SyncRatios returns 1 and every ratio a/b of two distinct rates of
// 23.976, 24, 25, 29.97 and 30 fps, without duplicates (30/24 is
// 29.97/23.976), ascending.
func SyncRatios() []float64 {
	rates := syncRates()
	out := []float64{1}
	for _, a := range rates {
		for _, b := range rates {
			r := a / b
			if !slices.ContainsFunc(out, func(x float64) bool { return math.Abs(x-r) < 1e-9 }) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// EstimateSync estimates the whole-file offset and the frame-rate drift
// of captions (the cues' display times) against speech (in time order,
// apart, as [Analysis.Check] ensures). It returns false when either is
// empty.
//
// Both are turned into signals at 100 Hz, 1 where someone speaks or a cue
// shows; for each ratio of [SyncRatios] the caption times are stretched
// by it and the signals cross-correlated over shifts of ±[SyncWindowMs].
// The correlation is computed exactly from the intervals rather than by
// FFT: as a function of the shift, the overlap of one speech segment and
// one cue is a trapezoid, so the sum over every pair within the window is
// built from four kinks a pair and two running sums. That is linear in
// the pairs (a few tens per cue) plus the window, milliseconds for a
// two-hour programme (BenchmarkEstimateSync), where a transform would need
// 2²¹ points per ratio.
//
// The best shift of each ratio is refined below 10 ms by fitting a
// parabola through the peak and its neighbours (the middle of a flat
// peak). Ratios are compared by the normalised correlation (peak over
// √(speech·captions), unchanged by the stretch); a ratio other than 1
// must beat 1 by ratioMargin. Confidence is the product of two shares:
// the peak's excess over the overlap a random shift gives
// (speech·captions/span) as a share of the largest excess possible
// (min(speech, captions) less that chance), and how far the peak stands
// above its best rival (the best shift further from it than the median
// cue lasts), as a share of its excess: a
// track whose cues come at so regular a pace that another shift fits as
// well is not confidently placed.
func EstimateSync(speech []Segment, cues []Span) (Sync, bool) {
	if len(speech) == 0 || len(cues) == 0 {
		return Sync{}, false
	}
	sp := make([]Span, 0, len(speech))
	for _, s := range speech {
		if a, b := bin(s.StartMs), bin(s.EndMs); b > a {
			sp = append(sp, Span{a, b})
		}
	}
	type tried struct {
		s     Sync
		score float64
	}
	var unit, best tried
	for _, r := range SyncRatios() {
		c := captionBins(cues, r)
		if len(sp) == 0 || len(c) == 0 {
			continue
		}
		lag, peak, conf := correlate(sp, c)
		t := tried{s: Sync{OffsetMs: lag * syncStepMs, Ratio: r, Confidence: conf},
			score: peak / math.Sqrt(float64(total(sp))*float64(total(c)))}
		if r == 1 {
			unit = t
		}
		if t.score > best.score {
			best = t
		}
	}
	if best.score <= 0 {
		return Sync{}, false
	}
	if best.s.Ratio != 1 && best.score < unit.score*(1+ratioMargin) {
		best = unit
	}
	return refineOnsets(speech, cues, best.s), true
}

// onsetWindowMs is how far from a cue's aligned in-time a speech onset
// may be to be taken for the one the cue captions.
const onsetWindowMs = 500

// refineOnsets moves s's offset by the median distance from each cue's
// aligned in-time to the nearest speech onset within [onsetWindowMs],
// when at least half the cues have one. The correlation aligns whole
// spans, so cues that stay up after the speech (reading time, as style
// guides allow) pull its peak late by about half their overhang; the
// in-times are what a caption is timed by (on the first frame of
// speech), and their median is not moved by a few cues that start
// mid-sentence.
func refineOnsets(speech []Segment, cues []Span, s Sync) Sync {
	var deltas []float64
	for _, c := range cues {
		m := float64(c.StartMs)*s.Ratio + s.OffsetMs
		i := sort.Search(len(speech), func(i int) bool { return float64(speech[i].StartMs) >= m })
		best, found := 0.0, false
		for _, j := range []int{i - 1, i} {
			if j < 0 || j >= len(speech) {
				continue
			}
			d := float64(speech[j].StartMs) - m
			if math.Abs(d) <= onsetWindowMs && (!found || math.Abs(d) < math.Abs(best)) {
				best, found = d, true
			}
		}
		if found {
			deltas = append(deltas, best)
		}
	}
	if len(deltas) == 0 || 2*len(deltas) < len(cues) {
		return s
	}
	slices.Sort(deltas)
	med := deltas[len(deltas)/2]
	if len(deltas)%2 == 0 {
		med = (deltas[len(deltas)/2-1] + deltas[len(deltas)/2]) / 2
	}
	s.OffsetMs += med
	return s
}

// bin turns milliseconds into 10 ms samples, rounded.
func bin(ms int64) int64 { return int64(math.Round(float64(ms) / syncStepMs)) }

// captionBins returns the captions-on signal of cues stretched by r, as
// sorted, disjoint runs of samples: overlapping cues show one signal.
func captionBins(cues []Span, r float64) []Span {
	c := make([]Span, 0, len(cues))
	for _, q := range cues {
		a := int64(math.Round(float64(q.StartMs) * r / syncStepMs))
		b := int64(math.Round(float64(q.EndMs) * r / syncStepMs))
		if b > a {
			c = append(c, Span{a, b})
		}
	}
	slices.SortFunc(c, func(x, y Span) int { return cmp.Compare(x.StartMs, y.StartMs) })
	out := c[:0]
	for _, q := range c {
		if n := len(out); n > 0 && q.StartMs <= out[n-1].EndMs {
			out[n-1].EndMs = max(out[n-1].EndMs, q.EndMs)
			continue
		}
		out = append(out, q)
	}
	return out
}

func total(s []Span) int64 {
	var n int64
	for _, x := range s {
		n += x.EndMs - x.StartMs
	}
	return n
}

// correlate returns the shift (in samples, refined below one) that puts
// captions c best over speech sp, both sorted runs of samples, the
// overlap there (in samples) and the confidence [EstimateSync] describes.
func correlate(sp, c []Span) (lag, peak, conf float64) {
	const w = SyncWindowMs / syncStepMs
	// The kinks of pairs whose trapezoid starts left of the window still
	// shape it, so the array starts at the leftmost kink.
	var maxSp, maxC int64
	for _, s := range sp {
		maxSp = max(maxSp, s.EndMs-s.StartMs)
	}
	for _, q := range c {
		maxC = max(maxC, q.EndMs-q.StartMs)
	}
	lo := -w - maxSp - maxC
	d := make([]int64, w-lo+2)
	kink := func(at int64, v int64) {
		if at <= w {
			d[at-lo] += v
		}
	}
	j0 := 0
	for _, q := range c {
		// Speech [a,b) meets the cue [c,d) shifted by L when a-d < L < b-c.
		for j0 < len(sp) && sp[j0].EndMs-q.StartMs <= -w {
			j0++
		}
		for j := j0; j < len(sp) && sp[j].StartMs-q.EndMs < w; j++ {
			a, b := sp[j].StartMs, sp[j].EndMs
			l1, l2 := min(a-q.StartMs, b-q.EndMs), max(a-q.StartMs, b-q.EndMs)
			kink(a-q.EndMs, 1)
			kink(l1, -1)
			kink(l2, -1)
			kink(b-q.StartMs, 1)
		}
	}
	// f(L+1) = f(L) + Σ_{k≤L} d[k], f(lo) = 0.
	f := make([]int64, 2*w+1)
	var slope, v int64
	for l := lo; l <= w; l++ {
		if l >= -w {
			f[l+w] = v
		}
		slope += d[l-lo]
		v += slope
	}
	k := 0
	for i := range f {
		if f[i] > f[k] {
			k = i
		}
	}
	end := k
	for end+1 < len(f) && f[end+1] == f[k] {
		end++
	}
	peak = float64(f[k])
	lag = float64(k+end)/2 - w
	if k == end && k > 0 && k+1 < len(f) {
		y0, y1, y2 := float64(f[k-1]), float64(f[k]), float64(f[k+1])
		if den := y0 - 2*y1 + y2; den < 0 {
			lag += 0.5 * (y0 - y2) / den
		}
	}
	// The rival is the best shift further from the peak than the median
	// cue lasts: beyond it a cue no longer meets the speech it was timed
	// to, so what the rival finds is other speech.
	durs := make([]int64, len(c))
	for i, q := range c {
		durs[i] = q.EndMs - q.StartMs
	}
	slices.Sort(durs)
	lobe := int(durs[len(durs)/2])
	lb, rb := k-lobe, end+lobe
	var rival int64
	for i, v := range f {
		if i < lb || i > rb {
			rival = max(rival, v)
		}
	}
	s, cs := float64(total(sp)), float64(total(c))
	span := float64(max(sp[len(sp)-1].EndMs, c[len(c)-1].EndMs) - min(sp[0].StartMs, c[0].StartMs))
	chance := s * cs / span
	if top := min(s, cs) - chance; top > 0 && peak > chance {
		excess := min((peak-chance)/top, 1)
		distinct := min(max((peak-float64(rival))/(peak-chance), 0), 1)
		conf = excess * distinct
	}
	return lag, peak, conf
}
