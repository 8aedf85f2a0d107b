package quota

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Reservation is one run held in a pool's count for a UTC day. Exactly one
// of [Reservation.Commit] and [Reservation.Release] should be called;
// later calls of either are no-ops.
type Reservation struct {
	s    *Service
	pool string
	day  time.Time
	cap  int

	mu   sync.Mutex
	done bool
}

// Reserve holds one run in pool's count for the current UTC day if fewer
// than cap are used, atomically in the store, so concurrent callers never
// exceed cap. A cap below 1 allows nothing. It returns
// [apperr.QuotaExceeded] with details "cap" (int) and "resetsAt" (RFC 3339
// string, the next UTC midnight) when the pool is full.
func (s *Service) Reserve(ctx context.Context, pool string, cap int) (*Reservation, error) {
	day := dayOf(s.now())
	if cap >= 1 {
		_, ok, err := s.store.Reserve(ctx, pool, day, cap)
		if err != nil {
			return nil, fmt.Errorf("quota: reserve %s: %w", pool, err)
		}
		if ok {
			return &Reservation{s: s, pool: pool, day: day, cap: cap}, nil
		}
	}
	resets := day.AddDate(0, 0, 1).Format(time.RFC3339)
	return nil, apperr.New(apperr.QuotaExceeded, "daily limit of %d successful runs reached; it resets at %s", cap, resets).
		WithDetail("cap", cap).WithDetail("resetsAt", resets)
}

// Commit keeps the run (the request succeeded) and returns the runs left
// in the pool for the current UTC day. A second call, or a call after
// Release, changes nothing and reports the same figure.
func (r *Reservation) Commit(ctx context.Context) (remaining int, err error) {
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
	u, err := r.s.Usage(ctx, r.pool, r.cap)
	if err != nil {
		return 0, err
	}
	return u.Remaining, nil
}

// Release gives the run back (the request failed). It runs even if ctx is
// cancelled, since a cancelled request is the usual reason to release. A
// second call, or a call after Commit, is a no-op.
func (r *Reservation) Release(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil
	}
	if err := r.s.store.Release(context.WithoutCancel(ctx), r.pool, r.day); err != nil {
		return fmt.Errorf("quota: release %s: %w", r.pool, err)
	}
	r.done = true
	return nil
}

// Usage returns pool's standing for the current UTC day under cap.
func (s *Service) Usage(ctx context.Context, pool string, cap int) (Usage, error) {
	day := dayOf(s.now())
	used, err := s.store.Used(ctx, pool, day)
	if err != nil {
		return Usage{}, fmt.Errorf("quota: usage %s: %w", pool, err)
	}
	return Usage{Cap: cap, Used: used, Remaining: max(cap-used, 0), ResetsAt: day.AddDate(0, 0, 1)}, nil
}
