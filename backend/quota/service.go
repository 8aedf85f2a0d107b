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

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// BurstPerSecond is the sustained per-key request rate of [Service.Allow];
	// default [DefaultBurstPerSecond].
	BurstPerSecond float64
	// Burst is the per-key bucket size; default [DefaultBurst].
	Burst int
}

// Service counts daily runs and applies the per-key burst limit. It is
// safe for concurrent use.
type Service struct {
	store Store
	now   func() time.Time
	limit rate.Limit
	burst int
	// idleAfter is how long an unused bucket is kept: by then it has
	// refilled, so dropping it loses nothing.
	idleAfter time.Duration

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastPrune time.Time
}

type bucket struct {
	lim      *rate.Limiter
	lastSeen time.Time
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, now: opts.Now, limit: rate.Limit(opts.BurstPerSecond), burst: opts.Burst,
		buckets: map[string]*bucket{}}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.BurstPerSecond <= 0 {
		s.limit = DefaultBurstPerSecond
	}
	if s.burst < 1 {
		s.burst = DefaultBurst
	}
	refill := time.Duration(float64(s.burst) / float64(s.limit) * float64(time.Second))
	s.idleAfter = max(refill, time.Minute)
	return s
}

// dayOf returns the UTC midnight that starts t's day.
func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
