package quota

import (
	"context"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Check returns [apperr.QuotaExceeded] (details "cap" and "resetsAt", as
// [Service.Take]) when pool has no run left for the current UTC day under
// cap, so a caller can refuse before doing the work. It counts nothing:
// only Take does, and a run Check lets through may still find the pool
// full when it ends.
func (s *Service) Check(ctx context.Context, pool string, cap int) error {
	u, err := s.Usage(ctx, pool, cap)
	if err != nil {
		return err
	}
	if u.Remaining < 1 {
		return exceeded(dayOf(s.now()), cap)
	}
	return nil
}

// Take counts one successful run in pool for the current UTC day if fewer
// than cap are counted, in one atomic step in the store, and returns the
// runs left. Concurrent callers never count more than cap, and nothing is
// held while a run is under way: a run that fails or never ends (a crash,
// a client gone) costs nothing and keeps no other run out. A cap below 1
// allows nothing. It returns [apperr.QuotaExceeded] with details "cap"
// (int) and "resetsAt" (RFC 3339 string, the next UTC midnight) when the
// pool is full.
func (s *Service) Take(ctx context.Context, pool string, cap int) (remaining int, err error) {
	day := dayOf(s.now())
	if cap >= 1 {
		forgetAdmitted(ctx, pool)
		used, ok, err := s.store.Take(ctx, pool, day, cap)
		if err != nil {
			return 0, fmt.Errorf("quota: take %s: %w", pool, err)
		}
		if ok {
			return max(cap-used, 0), nil
		}
	}
	return 0, exceeded(day, cap)
}

// exceeded is the refusal of a full pool for day.
func exceeded(day time.Time, cap int) *apperr.Error { return exceededOf(day, cap, "successful runs") }

// exceededOf is the refusal of a pool of what (plural) that is full.
func exceededOf(day time.Time, cap int, what string) *apperr.Error {
	resets := day.AddDate(0, 0, 1).Format(time.RFC3339)
	return apperr.New(apperr.QuotaExceeded, "daily limit of %d %s reached; it resets at %s", cap, what, resets).
		WithDetail("cap", cap).WithDetail("resetsAt", resets)
}

// Usage returns pool's standing for the current UTC day under cap: the
// count the request's admission read, the first time ([Service.AdmitKey]),
// else the store's.
func (s *Service) Usage(ctx context.Context, pool string, cap int) (Usage, error) {
	day := dayOf(s.now())
	used, ok := takeAdmitted(ctx, pool, day)
	if !ok {
		var err error
		if used, err = s.store.Used(ctx, pool, day); err != nil {
			return Usage{}, fmt.Errorf("quota: usage %s: %w", pool, err)
		}
	}
	return Usage{Cap: cap, Used: used, Remaining: max(cap-used, 0), ResetsAt: day.AddDate(0, 0, 1)}, nil
}

// TakeAll counts one successful run in every pool of draws for the current
// UTC day, all or none, in one atomic step in the store, and returns the
// runs left in each. It returns [apperr.QuotaExceeded] (details "cap",
// "resetsAt" and "pool", the pool that is full) when one is full or has a
// cap below 1, and then counts nothing.
func (s *Service) TakeAll(ctx context.Context, draws ...Draw) ([]int, error) {
	day := dayOf(s.now())
	for _, d := range draws {
		if d.Cap < 1 {
			return nil, exceededOf(day, d.Cap, d.what()).WithDetail("pool", d.Label)
		}
	}
	for _, d := range draws {
		forgetAdmitted(ctx, d.Pool)
	}
	used, full, err := s.store.TakeAll(ctx, day, draws)
	if err != nil {
		return nil, fmt.Errorf("quota: take all: %w", err)
	}
	if full >= 0 {
		return nil, exceededOf(day, draws[full].Cap, draws[full].what()).WithDetail("pool", draws[full].Label)
	}
	left := make([]int, len(draws))
	for i, d := range draws {
		left[i] = max(d.Cap-used[i], 0)
	}
	return left, nil
}

// CheckDraw is [Service.Check] for a draw: [apperr.QuotaExceeded] with
// details "cap", "resetsAt" and "pool" when d's pool is full.
func (s *Service) CheckDraw(ctx context.Context, d Draw) error {
	u, err := s.Usage(ctx, d.Pool, d.Cap)
	if err != nil {
		return err
	}
	if u.Remaining < 1 {
		return exceededOf(dayOf(s.now()), d.Cap, d.what()).WithDetail("pool", d.Label)
	}
	return nil
}
