package quota

import (
	"time"
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
	// callers of one account share in [Service.AdmitKey]; they default to
	// twice the per-key rate and burst (10 a second, bursts of 40 with
	// the per-key defaults). One key still has its own limit, two busy
	// keys together get about as much as one key alone could, and minting
	// more keys buys no more.
	AccountBurstPerSecond float64
	AccountBurst          int
	// Buckets keeps the token buckets; nil keeps them in this process
	// (one node). A cluster's store shares them between nodes.
	Buckets Buckets
	// Admission, if set, is the store's one-round-trip admission
	// ([Service.AdmitKey]); nil takes from Buckets, then reads each pool.
	Admission Admission
}

// Service counts daily runs and applies the per-key and per-account
// burst limits. It is safe for concurrent use.
type Service struct {
	store   Store
	buckets Buckets
	admit   Admission
	now     func() time.Time
	// every and burst size a key's bucket; accEvery and accBurst an
	// account's (AdmitKey).
	every, accEvery time.Duration
	burst, accBurst int
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, buckets: opts.Buckets, now: opts.Now, burst: opts.Burst, accBurst: opts.AccountBurst}
	if s.buckets == nil {
		s.buckets = NewMemoryBuckets()
	}
	s.admit = opts.Admission
	if s.admit == nil {
		s.admit = storeAdmission{buckets: s.buckets, store: store}
	}
	if s.now == nil {
		s.now = time.Now
	}
	perSecond, accPerSecond := opts.BurstPerSecond, opts.AccountBurstPerSecond
	if perSecond <= 0 {
		perSecond = DefaultBurstPerSecond
	}
	if s.burst < 1 {
		s.burst = DefaultBurst
	}
	if accPerSecond <= 0 {
		accPerSecond = accountFactor * perSecond
	}
	if s.accBurst < 1 {
		s.accBurst = accountFactor * s.burst
	}
	s.every, s.accEvery = interval(perSecond), interval(accPerSecond)
	return s
}

// interval is the time between two tokens at perSecond a second.
func interval(perSecond float64) time.Duration {
	return time.Duration(float64(time.Second) / perSecond)
}

// dayOf returns the UTC midnight that starts t's day.
func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
