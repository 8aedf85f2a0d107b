package quota

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Defaults of [Options].
const (
	DefaultBurstPerSecond = 5
	DefaultBurst          = 20
)

// accountFactor is how many keys' worth of requests an account's keys
// may make together: see [Options.AccountBurst].
const accountFactor = 2

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// BurstPerSecond is the sustained per-key request rate of [Service.Allow];
	// default [DefaultBurstPerSecond].
	BurstPerSecond float64
	// Burst is the per-key bucket size; default [DefaultBurst].
	Burst int
	// AccountBurstPerSecond and AccountBurst size the bucket that all the
	// callers of one account share in [Service.AllowKey]; they default to
	// twice the per-key rate and burst (10 a second, bursts of 40 with
	// the per-key defaults). One key still has its own limit, two busy
	// keys together get about as much as one key alone could, and minting
	// more keys buys no more.
	AccountBurstPerSecond float64
	AccountBurst          int
}

// Service counts daily runs and applies the per-key and per-account
// burst limits. It is safe for concurrent use.
type Service struct {
	store Store
	now   func() time.Time
	limit rate.Limit
	burst int
	// accLimit and accBurst size the account buckets of AllowKey.
	accLimit rate.Limit
	accBurst int
	// idleAfter is how long an unused bucket is kept: by then it has
	// refilled, so dropping it loses nothing.
	idleAfter time.Duration

	mu sync.Mutex
	// buckets are per key (or any name [Service.Allow] is given);
	// accounts are per account, apart so that no key name can be taken
	// for an account's.
	buckets   map[string]*bucket
	accounts  map[string]*bucket
	lastPrune time.Time
}

type bucket struct {
	lim      *rate.Limiter
	lastSeen time.Time
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, now: opts.Now, limit: rate.Limit(opts.BurstPerSecond), burst: opts.Burst,
		accLimit: rate.Limit(opts.AccountBurstPerSecond), accBurst: opts.AccountBurst,
		buckets: map[string]*bucket{}, accounts: map[string]*bucket{}}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.BurstPerSecond <= 0 {
		s.limit = DefaultBurstPerSecond
	}
	if s.burst < 1 {
		s.burst = DefaultBurst
	}
	if opts.AccountBurstPerSecond <= 0 {
		s.accLimit = accountFactor * s.limit
	}
	if s.accBurst < 1 {
		s.accBurst = accountFactor * s.burst
	}
	s.idleAfter = max(refillTime(s.burst, s.limit), refillTime(s.accBurst, s.accLimit), time.Minute)
	return s
}

// refillTime is how long an empty bucket takes to fill.
func refillTime(burst int, limit rate.Limit) time.Duration {
	return time.Duration(float64(burst) / float64(limit) * float64(time.Second))
}

// dayOf returns the UTC midnight that starts t's day.
func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
