package video

import (
	"context"
	"math"
)

// defaultSpeeds is a read-only table of the speeds assumed until jobs of
// a mode have run here: media seconds per
// wall second, conservative figures of the measurements on this machine
// kind (burn-in 4-5x real time idle; stream copies over 100x).
var defaultSpeeds = map[string]float64{ModeBurnIn: 2, ModeMuxSoft: 100}

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
	return j.MediaSeconds / v
}
