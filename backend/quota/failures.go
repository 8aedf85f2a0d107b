package quota

import (
	"math"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Defaults of [FailureOptions].
const (
	DefaultFreeFailures = 5
	DefaultFailureDelay = time.Second
	DefaultMaxFailDelay = 4 * time.Second
	// failureMemory is how long a key's failures are remembered after its
	// last one.
	failureMemory = 15 * time.Minute
)

// FailureOptions configure [Failures]. Zero fields take their defaults.
type FailureOptions struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// Free is the number of failures a key may have before each further
	// one imposes a pause; default [DefaultFreeFailures].
	Free int
	// Delay is the first pause, doubled by each further failure up to
	// MaxDelay; defaults [DefaultFailureDelay] and [DefaultMaxFailDelay].
	Delay, MaxDelay time.Duration
}

// Failures throttles an action by its failures only, such as sign-in
// attempts keyed by account and address. Successes are never counted, so
// a caller who gets it right is held up by at most MaxDelay however many
// failures came before, while guessing is slowed to one try per MaxDelay.
// It is safe for concurrent use.
type Failures struct {
	opts FailureOptions

	mu        sync.Mutex
	keys      map[string]*failures
	lastPrune time.Time
}

type failures struct {
	count int
	// until is the end of the pause the last failure imposed.
	until, last time.Time
}

// NewFailures returns a [Failures] throttle.
func NewFailures(opts FailureOptions) *Failures {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Free < 1 {
		opts.Free = DefaultFreeFailures
	}
	if opts.Delay <= 0 {
		opts.Delay = DefaultFailureDelay
	}
	if opts.MaxDelay < opts.Delay {
		opts.MaxDelay = max(DefaultMaxFailDelay, opts.Delay)
	}
	return &Failures{opts: opts, keys: map[string]*failures{}}
}

// Check returns [apperr.RateLimited] with details "retryAfterSeconds"
// (at least 1) while key is in the pause its last failure imposed, and
// nil otherwise. A refused attempt is not a failure: it extends nothing.
func (f *Failures) Check(key string) error {
	now := f.opts.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.keys[key]
	if e == nil || !now.Before(e.until) {
		return nil
	}
	secs := max(int(math.Ceil(e.until.Sub(now).Seconds())), 1)
	return apperr.New(apperr.RateLimited, "too many failed attempts; retry in %d s", secs).
		WithDetail("retryAfterSeconds", secs)
}

// Fail records a failure of key: past the free ones, it imposes a pause
// from now of Delay, doubled for each further failure, at most MaxDelay.
func (f *Failures) Fail(key string) {
	now := f.opts.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prune(now)
	e := f.keys[key]
	if e == nil {
		e = &failures{}
		f.keys[key] = e
	}
	e.count++
	e.last = now
	if over := e.count - f.opts.Free; over > 0 {
		d := f.opts.MaxDelay
		if over < 32 {
			d = min(f.opts.Delay<<(over-1), f.opts.MaxDelay)
		}
		e.until = now.Add(d)
	}
}

// Succeed forgets key's failures.
func (f *Failures) Succeed(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.keys, key)
}

// prune drops keys whose last failure is older than failureMemory,
// sweeping at most once a minute. The caller holds f.mu.
func (f *Failures) prune(now time.Time) {
	if now.Sub(f.lastPrune) < time.Minute {
		return
	}
	f.lastPrune = now
	for k, e := range f.keys {
		if now.Sub(e.last) >= failureMemory {
			delete(f.keys, k)
		}
	}
}
