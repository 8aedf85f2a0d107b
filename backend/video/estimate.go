package video

import (
	"context"
	"math"

	"github.com/captionqa/captionqa/backend/media"
)

// defaultSpeeds is a read-only table of the speeds assumed until jobs of
// a mode have run here: media seconds per
// wall second, conservative figures of the measurements on this machine
// kind (burn-in 4-5x real time idle; stream copies over 100x; an
// analysis decodes the picture at about 28x real time at 720p, some 10x
// at the reference 1080p30; a preview decodes it and encodes 640 px of
// VP9, 3 to 8x real time at 720p: taken as a burn-in).
var defaultSpeeds = map[string]float64{ModeBurnIn: 2, ModePreview: 2, ModeMuxSoft: 100, ModeAnalyze: 8}

// sidecarSeconds is what a sidecar job is taken to cost: an engine run.
const sidecarSeconds = 1.0

// estimate sets j.EstimatedWaitSeconds on a queued job: the remaining
// work of the jobs ahead of it in its lane, at the speeds recent jobs
// reached, shared among the lane's workers.
func (s *Service) estimate(ctx context.Context, j *Job) error {
	if j.Status != Queued {
		return nil
	}
	ahead, err := s.o.Store.Ahead(ctx, j)
	if err != nil {
		return err
	}
	speeds, err := s.o.Store.Speeds(ctx)
	if err != nil {
		return err
	}
	total := 0.0
	for _, a := range ahead {
		s.readPixelRate(ctx, &a)
		total += cost(&a, speeds) * (1 - a.Progress)
	}
	workers := s.o.LightWorkers
	if LaneOf(j) == LaneHeavy {
		workers = s.o.HeavyWorkers
	}
	j.EstimatedWaitSeconds = int(math.Ceil(total / float64(workers)))
	return nil
}

// cost is the wall seconds a whole run of j is expected to take.
func cost(j *Job, speeds map[string]float64) float64 {
	if j.Mode == ModeSidecar || j.MediaSeconds <= 0 {
		return sidecarSeconds
	}
	v := speeds[j.Mode]
	if v <= 0 {
		v = defaultSpeeds[j.Mode]
	}
	if v <= 0 {
		v = 1
	}
	return j.MediaSeconds * workScale(j) / v
}

// ReferencePixelRate is the pixel rate the default speeds and the
// timeout's per-second allowance are figured for: 1920x1080 at 30 frames
// a second.
const ReferencePixelRate = 1920 * 1080 * 30

// workScale is how much more than a reference video a media second of j
// costs: for a job that decodes or encodes the picture (the heavy lane),
// its pixel rate over [ReferencePixelRate], with a floor of 1, so that a
// small picture never gets less time than a 1080p30 one (docs/media.md,
// Jobs); 1 for stream copies and track reads, whose cost follows the
// bytes, and when the pixel rate is unknown.
func workScale(j *Job) float64 {
	if LaneOf(j) != LaneHeavy || j.PixelRate <= 0 {
		return 1
	}
	return max(j.PixelRate/ReferencePixelRate, 1)
}

// pixelRate is the probe's video stream's pixels a second, 0 without one.
func pixelRate(p *media.Probe) float64 {
	if p == nil {
		return 0
	}
	v := p.Video()
	if v == nil {
		return 0
	}
	return float64(v.Width) * float64(v.Height) * v.FrameRate
}

// readPixelRate fills the pixel rate of a job read from the store (which
// keeps only its duration) from its media. Media that expired or is gone
// leaves it unknown: the job is then costed as a reference video.
func (s *Service) readPixelRate(ctx context.Context, j *Job) {
	if j.PixelRate > 0 || j.MediaKey == "" || LaneOf(j) != LaneHeavy {
		return
	}
	if m, err := s.o.Media.Media(ctx, j.AccountID, j.MediaKey); err == nil && m.Probe != nil {
		j.PixelRate = pixelRate(m.Probe)
	}
}
