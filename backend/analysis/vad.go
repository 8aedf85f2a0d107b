package analysis

import "math"

// The VAD's settings, tuned on the espeak-ng test programmes, clean and
// over a pink-noise or a chord bed (docs/media.md, Analysis).
const (
	vadRate   = 16000
	vadHop    = 160 // one 10 ms frame
	vadWindow = 256 // the FFT, over the frame and the 6 ms before it
	frameMs   = 1000 * vadHop / vadRate

	// The speech band, 300 to 3400 Hz, in bins of 62.5 Hz rounded down:
	// 250 to 3375 Hz. The bin under 300 Hz stays: without it the ends
	// of the test programmes' lines came up to 230 ms late, not 110.
	bandLo = 300 * vadWindow / vadRate
	bandHi = 3400 * vadWindow / vadRate

	// The noise floor is the least mean band energy of the last
	// floorBlocks blocks of floorBlock frames (3 s): a bed that starts
	// is the floor 3 s later, and speech, which pauses between words,
	// does not lift it. Means, not single frames, because a bed's
	// energy flickers from frame to frame (a chord's tones beat) and
	// the floor would sit under it, taking its peaks for speech.
	floorBlock  = 10
	floorBlocks = 30
	// floorMin is the floor over digital silence, about -70 dBFS of a
	// tone in the band: quieter sound is never speech.
	floorMin = 6e-4

	// A frame is loud above loudDB over the floor; voiced when also over
	// voicedDB with a spectral flatness under maxFlatness (a tone or a
	// vowel's harmonics are near 0, white noise about 0.56, so hiss,
	// breath and noise beds are not speech).
	loudDB      = 6
	voicedDB    = 9
	maxFlatness = 0.3

	// A segment starts at the first voiced frame, taken back over the
	// loud frames just before it (a fricative onset) by up to leadFrames;
	// it goes on over loud frames up to tailFrames after its last voiced
	// frame, and ends after hangFrames without a loud one.
	leadFrames = 20
	tailFrames = 30
	hangFrames = 25
	// A segment needs minVoiced voiced frames; segments less than
	// mergeGapMs apart are one, and the ones shorter than minSpeechMs
	// are dropped.
	minVoiced   = 5
	mergeGapMs  = 300
	minSpeechMs = 200
)

// VAD is a voice-activity detector over 16 kHz mono s16le PCM, written
// to it in chunks of any size. Its state is a frame's samples, the noise
// floor's block means and the segment being read; the segments found
// grow with the speech, never with the sound.
//
// It tells speech from silence and from steady beds, not from every
// sound: a voice-like noise (a sung note, an animal) is speech to it.
type VAD struct {
	dec    s16le
	ring   [vadWindow]float64 // the last vadWindow samples, from head on
	head   int
	pos    int // samples since the last frame
	frame  int64
	fft    *fft
	window [vadWindow]float64

	blockSum float64
	blockN   int
	mins     [floorBlocks]float64
	minsN    int

	loudRun     int64 // first frame of the current run of loud frames, -1 for none
	inSeg       bool
	segStart    int64
	lastVoiced  int64
	lastLoud    int64
	voicedCount int
	confSum     float64

	segs []Segment
}

// NewVAD returns a detector at the start of a programme.
func NewVAD() *VAD {
	v := &VAD{fft: newFFT(vadWindow), loudRun: -1}
	for i := range v.window {
		v.window[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(vadWindow))
	}
	return v
}

// Write adds PCM; it never fails.
func (v *VAD) Write(p []byte) (int, error) {
	v.dec.each(p, v.sample)
	return len(p), nil
}

func (v *VAD) sample(s int16) {
	v.ring[v.head] = float64(s) / 32768
	v.head = (v.head + 1) % vadWindow
	v.pos++
	if v.pos == vadHop {
		v.pos = 0
		v.step()
	}
}

// step reads one frame.
func (v *VAD) step() {
	f := v.fft
	for i := range vadWindow {
		f.re[i], f.im[i] = v.ring[(v.head+i)%vadWindow]*v.window[i], 0
	}
	f.transform()
	var sum, logSum float64
	for k := bandLo; k <= bandHi; k++ {
		p := f.re[k]*f.re[k] + f.im[k]*f.im[k] + 1e-12
		sum += p
		logSum += math.Log(p)
	}
	bins := float64(bandHi - bandLo + 1)
	energy := sum
	flatness := math.Exp(logSum/bins) / (sum / bins)

	floor := v.observeFloor(energy)
	snr := 10 * math.Log10(energy/floor)
	v.decide(energy, floor, snr, flatness)
	v.frame++
}

// observeFloor takes a frame's energy into the minimum statistics and
// returns the floor: the least of the stored block means, or before the
// first block ends, the mean so far.
func (v *VAD) observeFloor(e float64) float64 {
	v.blockSum += e
	v.blockN++
	floor := v.blockSum / float64(v.blockN)
	if v.minsN > 0 {
		floor = v.mins[0]
		for i := 1; i < v.minsN; i++ {
			floor = min(floor, v.mins[i])
		}
	}
	if v.blockN == floorBlock {
		v.mins[int(v.frame/floorBlock)%floorBlocks] = v.blockSum / floorBlock
		v.minsN = min(v.minsN+1, floorBlocks)
		v.blockSum, v.blockN = 0, 0
	}
	return max(floor, floorMin)
}

func (v *VAD) decide(energy, floor, snr, flatness float64) {
	i := v.frame
	loud := snr > loudDB
	voiced := snr > voicedDB && flatness < maxFlatness
	if !loud {
		v.loudRun = -1
	} else if v.loudRun < 0 {
		v.loudRun = i
	}
	if !v.inSeg {
		if !voiced {
			return
		}
		v.inSeg = true
		v.segStart = max(v.loudRun, i-leadFrames)
		v.voicedCount, v.confSum = 0, 0
	}
	if voiced {
		v.lastVoiced = i
		v.voicedCount++
		// The share of the band's amplitude above the noise.
		v.confSum += 1 - math.Sqrt(floor/energy)
	}
	if loud && i-v.lastVoiced <= tailFrames {
		v.lastLoud = i
	}
	if i-v.lastLoud > hangFrames {
		v.close()
	}
}

// close ends the open segment at its last loud frame.
func (v *VAD) close() {
	v.inSeg = false
	if v.voicedCount < minVoiced {
		return
	}
	s := Segment{StartMs: v.segStart * frameMs, EndMs: (v.lastLoud + 1) * frameMs, Confidence: v.confSum / float64(v.voicedCount)}
	if n := len(v.segs); n > 0 && s.StartMs-v.segs[n-1].EndMs < mergeGapMs {
		prev := &v.segs[n-1]
		// Weighted by length, so a merged segment's confidence stays a mean.
		a, b := float64(prev.DurationMs()), float64(s.DurationMs())
		prev.Confidence = (prev.Confidence*a + s.Confidence*b) / (a + b)
		prev.EndMs = s.EndMs
		return
	}
	v.segs = append(v.segs, s)
}

// Segments ends the sound (a segment still open ends at its last loud
// frame) and returns the speech found, in time order, without segments
// shorter than 200 ms. Call it once, after the last Write.
func (v *VAD) Segments() []Segment {
	if v.inSeg {
		v.close()
	}
	out := make([]Segment, 0, len(v.segs))
	for _, s := range v.segs {
		if s.DurationMs() >= minSpeechMs {
			out = append(out, s)
		}
	}
	return out
}
