package video

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// beat records a running job's progress and heartbeat every [Heartbeat],
// and cancels the run when the job left its run's running state (a
// cancel from any process).
type beat struct {
	s        *Service
	j        *Job
	progress atomic.Uint64 // per million, monotonic
}

func newBeat(s *Service, j *Job) *beat { return &beat{s: s, j: j} }

// set records p (0 to 1) for the next heartbeat; progress never goes back.
func (b *beat) set(p float64) {
	v := uint64(min(max(p, 0), 1) * 1e6)
	for {
		old := b.progress.Load()
		if v <= old || b.progress.CompareAndSwap(old, v) {
			return
		}
	}
}

// start runs the heartbeat until the returned stop is called.
func (b *beat) start(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			p := float64(b.progress.Load()) / 1e6
			ok, err := b.s.o.Store.Beat(ctx, b.j.ID, b.j.Run, p, b.s.now())
			if err == nil && !ok {
				cancel(errCanceled)
				return
			}
			if err != nil && ctx.Err() == nil {
				b.s.o.Logger.Warn("video job heartbeat not recorded", "job", b.j.ID, "err", err)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
