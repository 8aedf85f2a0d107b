package quota

import (
	"math"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"golang.org/x/time/rate"
)

// Allow takes one token from key's bucket ([Options.Burst] tokens refilled
// at [Options.BurstPerSecond]). Buckets live in memory; one unused long
// enough to have refilled is dropped. It returns [apperr.RateLimited] with
// details "retryAfterSeconds" (int, at least 1: the wait until a token is
// free, rounded up) when the bucket is empty.
func (s *Service) Allow(key string) error {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune(now)
	b, ok := s.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(s.limit, s.burst)}
		s.buckets[key] = b
	}
	b.lastSeen = now
	r := b.lim.ReserveN(now, 1)
	delay := r.DelayFrom(now)
	if delay == 0 {
		return nil
	}
	r.CancelAt(now)
	secs := max(int(math.Ceil(delay.Seconds())), 1)
	return apperr.New(apperr.RateLimited, "too many requests; retry in %d s", secs).
		WithDetail("retryAfterSeconds", secs)
}

// prune drops idle buckets, sweeping at most once per idle span so Allow
// stays O(1) amortised. The caller holds s.mu.
func (s *Service) prune(now time.Time) {
	if now.Sub(s.lastPrune) < s.idleAfter {
		return
	}
	s.lastPrune = now
	for k, b := range s.buckets {
		if now.Sub(b.lastSeen) >= s.idleAfter {
			delete(s.buckets, k)
		}
	}
}
