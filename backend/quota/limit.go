package quota

import (
	"context"
	"math"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Bucket name prefixes: a key's (or any name [Service.Allow] is given)
// apart from an account's, so that no key name can be taken for an
// account's.
const (
	keyBucket     = "k:"
	accountBucket = "a:"
)

// Allow takes one token from key's bucket ([Options.Burst] tokens refilled
// at [Options.BurstPerSecond]) in the store's [Buckets]. It returns
// [apperr.RateLimited] with details "retryAfterSeconds" (int, at least 1:
// the wait until a token is free, rounded up) when the bucket is empty,
// or the buckets' error ([apperr.Unavailable] when a shared store cannot
// be reached).
func (s *Service) Allow(ctx context.Context, key string) error {
	waits, err := s.buckets.Take(ctx, s.now(), []Bucket{{Name: keyBucket + key, Every: s.every, Burst: s.burst}})
	if err != nil {
		return err
	}
	if waits[0] > 0 {
		return limited(waits[0], "")
	}
	return nil
}

// AdmitKey admits a request of key (one of account's): it takes one
// token from key's bucket, as [Service.Allow] does, and one from the
// bucket that every key of account shares ([Options.AccountBurst] tokens
// refilled at [Options.AccountBurstPerSecond]), or from neither when
// either is empty, so a refused request costs nothing; and it reads the
// day's counts of pools, which the returned context carries: the
// request's first [Service.Check] or [Service.Usage] of each is answered
// without another read (see [Admission]). It returns [apperr.RateLimited]
// with details "retryAfterSeconds" (the longer of the two waits) and,
// when the account's bucket is the one that is empty, "bucket":
// "account"; or the store's error ([apperr.Unavailable]).
func (s *Service) AdmitKey(ctx context.Context, account, key string, pools ...string) (context.Context, error) {
	now := s.now()
	day := dayOf(now)
	waits, used, err := s.admit.Admit(ctx, now, []Bucket{
		{Name: keyBucket + key, Every: s.every, Burst: s.burst},
		{Name: accountBucket + account, Every: s.accEvery, Burst: s.accBurst},
	}, day, pools)
	if err != nil {
		return ctx, err
	}
	kd, ad := waits[0], waits[1]
	switch {
	case ad > 0:
		return ctx, limited(max(kd, ad), "account")
	case kd > 0:
		return ctx, limited(kd, "")
	}
	return withAdmitted(ctx, day, pools, used), nil
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
