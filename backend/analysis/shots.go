package analysis

// Defaults of [ShotOptions].
const (
	// DefaultShotThreshold is the scene score (ffmpeg scdet's, 0 to 100)
	// from which a frame may start a new shot: hard cuts between unlike
	// pictures score 20 to 50, frames within a shot, a pan or a slow
	// fade under 2 (docs/media.md, Analysis).
	DefaultShotThreshold = 10
	// DefaultMinShotFrames is the shortest shot: candidates closer than
	// this to one another, or to the first frame, are a flash, a strobe
	// or a glitch, not cuts.
	DefaultMinShotFrames = 6
)

// settleRatio is how much calmer the frame after a cut must be: its
// difference from the one before under half the cut's. After a cut the
// new shot goes on; after a one-frame flash the picture changes back as
// much again.
const settleRatio = 0.5

// ShotOptions tune a [ShotDetector]; zero fields take the defaults.
type ShotOptions struct {
	Threshold     float64
	MinShotFrames int64
}

// FrameScore is the scene detector's reading of one frame: Score is
// scdet's (the change in the mean absolute frame difference, capped by
// it), MAFD the mean absolute difference from the frame before itself.
type FrameScore struct {
	Frame, TimeMs int64
	Score, MAFD   float64
}

// ShotDetector turns a scene detector's per-frame readings into shot
// changes. A frame scoring at or over the threshold is a candidate if the
// frame after it settles (see settleRatio): a one-frame flash or a strobe
// does not. A run of candidates each less than MinShotFrames after the
// one before (a longer flash: the picture changes and comes back) yields
// no cut at all, since from scores alone it cannot be told from a cut
// followed at once by another; a lone candidate is a cut. Neither the
// first frame nor one less than MinShotFrames after it is a cut. Its
// state is one pending frame and the current run of candidates.
//
// A picture that changes wholly from every frame to the next (noise, a
// strobe, a cellular automaton) hides the cuts into and out of it: its
// own differences are as large as the cut's.
type ShotDetector struct {
	opts    ShotOptions
	pending *FrameScore
	run     []ShotChange
	changes []ShotChange
}

// NewShotDetector returns a detector with o's settings.
func NewShotDetector(o ShotOptions) *ShotDetector {
	if o.Threshold <= 0 {
		o.Threshold = DefaultShotThreshold
	}
	if o.MinShotFrames <= 0 {
		o.MinShotFrames = DefaultMinShotFrames
	}
	return &ShotDetector{opts: o, changes: []ShotChange{}}
}

// Add takes a frame's reading; frames come in increasing order.
func (d *ShotDetector) Add(f FrameScore) {
	if p := d.pending; p != nil {
		d.pending = nil
		if f.MAFD < p.MAFD*settleRatio {
			d.candidate(*p)
		}
	}
	if f.Frame >= d.opts.MinShotFrames && f.Score >= d.opts.Threshold {
		d.pending = &f
	}
}

func (d *ShotDetector) candidate(f FrameScore) {
	if n := len(d.run); n > 0 && f.Frame-d.run[n-1].Frame >= d.opts.MinShotFrames {
		d.flush()
	}
	d.run = append(d.run, ShotChange{TimeMs: f.TimeMs, Frame: f.Frame, Score: f.Score})
}

func (d *ShotDetector) flush() {
	if len(d.run) == 1 {
		d.changes = append(d.changes, d.run[0])
	}
	d.run = d.run[:0]
}

// Changes returns the shot changes, in frame order, once the last frame
// has been added (a candidate on the last frame counts, a run still open
// is decided then).
func (d *ShotDetector) Changes() []ShotChange {
	if p := d.pending; p != nil {
		d.pending = nil
		d.candidate(*p)
	}
	d.flush()
	return d.changes
}
