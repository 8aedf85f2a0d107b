package analysis

// Defaults of [ShotOptions].
const (
	// DefaultShotThreshold is the scene score (ffmpeg scdet's, 0 to 100)
	// from which a frame may start a new shot: hard cuts between unlike
	// pictures score 20 to 40, frames within a shot, a pan or a slow
	// fade under 2 (docs/media.md, Analysis).
	DefaultShotThreshold = 10
	// DefaultMinShotFrames is the shortest shot: candidates closer than
	// this to one another are a flash, a strobe or a glitch, not cuts.
	DefaultMinShotFrames = 6
)

// ShotOptions tune a [ShotDetector]; zero fields take the defaults.
type ShotOptions struct {
	Threshold     float64
	MinShotFrames int64
}

// ShotDetector turns a scene detector's per-frame scores into shot
// changes. A frame scoring at or over the threshold is a candidate; a run
// of candidates each less than MinShotFrames after the one before is a
// flash (the picture changes and comes back: two candidates) or a strobe
// and yields no cut at all, since from scores alone it cannot be told
// from a cut followed at once by another. A lone candidate is a cut. The
// first frame never is one. Its state is the current run of candidates.
type ShotDetector struct {
	opts    ShotOptions
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

// Add takes frame's score; frames come in increasing order.
func (d *ShotDetector) Add(frame, timeMs int64, score float64) {
	if frame <= 0 || score < d.opts.Threshold {
		return
	}
	if n := len(d.run); n > 0 && frame-d.run[n-1].Frame >= d.opts.MinShotFrames {
		d.flush()
	}
	d.run = append(d.run, ShotChange{TimeMs: timeMs, Frame: frame, Score: score})
}

func (d *ShotDetector) flush() {
	if len(d.run) == 1 {
		d.changes = append(d.changes, d.run[0])
	}
	d.run = d.run[:0]
}

// Changes returns the shot changes, in frame order, once the last frame
// has been added (a run still open is decided then).
func (d *ShotDetector) Changes() []ShotChange {
	d.flush()
	return d.changes
}
