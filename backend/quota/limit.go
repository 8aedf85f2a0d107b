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
	r := reserve(s.buckets, key, s.limit, s.burst, now)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return limited(delay, "")
	}
	return nil
}

// AllowKey takes one token from key's bucket, as [Service.Allow] does,
// and one from the bucket that every key of account shares
// ([Options.AccountBurst] tokens refilled at
// [Options.AccountBurstPerSecond]), or from neither when either is empty:
// a refused request costs nothing. It returns [apperr.RateLimited] with
// details "retryAfterSeconds" (the longer of the two waits) and, when the
// account's bucket is the one that is empty, "bucket": "account".
func (s *Service) AllowKey(account, key string) error {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune(now)
	kr := reserve(s.buckets, key, s.limit, s.burst, now)
	ar := reserve(s.accounts, account, s.accLimit, s.accBurst, now)
	kd, ad := kr.DelayFrom(now), ar.DelayFrom(now)
	if kd == 0 && ad == 0 {
		return nil
	}
	ar.CancelAt(now)
	kr.CancelAt(now)
	if ad > 0 {
		return limited(max(kd, ad), "account")
	}
	return limited(kd, "")
}

// reserve takes a token from the bucket name in buckets, creating it full
// if absent. The caller holds s.mu.
func reserve(buckets map[string]*bucket, name string, limit rate.Limit, burst int, now time.Time) *rate.Reservation {
	b, ok := buckets[name]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(limit, burst)}
		buckets[name] = b
	}
	b.lastSeen = now
	return b.lim.ReserveN(now, 1)
}

// limited is the refusal of a request that must wait delay; scope, when
// set, names the bucket that is empty.
func limited(delay time.Duration, scope string) error {
	secs := max(int(math.Ceil(delay.Seconds())), 1)
	if scope == "account" {
		return apperr.New(apperr.RateLimited, "too many requests from this account's keys together; retry in %d s", secs).
			WithDetail("retryAfterSeconds", secs).WithDetail("bucket", scope)
	}
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
	for _, m := range []map[string]*bucket{s.buckets, s.accounts} {
		for k, b := range m {
			if now.Sub(b.lastSeen) >= s.idleAfter {
				delete(m, k)
			}
		}
	}
}
