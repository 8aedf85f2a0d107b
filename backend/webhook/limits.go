package webhook

import (
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/parallel"
)

// Defaults of the delivery limits (docs/webhooks.md, Delivery queue):
// what keeps a receiver that hangs or fails from taking the delivery
// workers every other account's deliveries need.
const (
	// DefaultPerAccount is how many attempts of one account's deliveries
	// run at once on a process: a receiver that never answers holds at
	// most this many delivery workers, each for an attempt's timeout.
	DefaultPerAccount = 2
	// DefaultBreakerFailures is how many failed attempts in a row to one
	// URL open its circuit.
	DefaultBreakerFailures = 5
	// DefaultBreakerCoolDown is how long an open circuit makes no attempt
	// before it lets one probe through.
	DefaultBreakerCoolDown = time.Minute
	// BusyWait is how long an attempt waits, without counting as one,
	// when its account has its attempts at once in flight or a probe of
	// its URL is in flight: either ends within an attempt's timeout.
	BusyWait = time.Second
)

// ReasonCircuitOpen is the lastError of a delivery that failed for good
// without a last attempt: its retry window ended while its URL's circuit
// was open (docs/webhooks.md, Delivery queue).
const ReasonCircuitOpen = "not attempted: the receiver failed too many attempts in a row and its retry window ended while attempts to it were paused"

// result is how an attempt let through by a [breaker] ended.
type result int

const (
	// abandoned: ended without the receiver's answer because this process
	// gave it up (a shutdown); it tells nothing of the receiver.
	abandoned result = iota
	succeeded
	failed
)

// breaker is a circuit breaker per destination URL: after failures
// failed attempts in a row to a URL its circuit opens and no attempt is
// made to it for coolDown; then one attempt, the probe, goes through
// (half-open): its success closes the circuit, its failure opens it for
// another coolDown. Any success to the URL closes it. The state lives in
// this process only: each node of a cluster learns a failing receiver on
// its own. It is safe for concurrent use.
type breaker struct {
	failures int
	coolDown time.Duration
	now      func() time.Time

	mu sync.Mutex
	// urls holds the circuits of the URLs whose last attempt failed; a
	// success removes the URL's, so it holds no more than the webhooks
	// that are failing.
	urls map[string]*circuit
}

type circuit struct {
	failures  int       // failed attempts in a row
	openUntil time.Time // with failures at the threshold: no attempt before
	probing   bool      // the half-open probe is in flight
}

func newBreaker(failures int, coolDown time.Duration, now func() time.Time) *breaker {
	return &breaker{failures: failures, coolDown: coolDown, now: now, urls: map[string]*circuit{}}
}

// allow reports whether an attempt to url may be made now, and whether
// it is the half-open probe; when it may not, until is when to ask
// again: the cool-down's end, or [BusyWait] from now while a probe is in
// flight. Each attempt allowed is followed by one done.
func (b *breaker) allow(url string) (ok, probe bool, until time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.urls[url]
	if c == nil || c.failures < b.failures {
		return true, false, time.Time{}
	}
	now := b.now()
	switch {
	case now.Before(c.openUntil):
		return false, false, c.openUntil
	case c.probing:
		return false, false, now.Add(BusyWait)
	}
	c.probing = true
	return true, true, time.Time{}
}

// done records how an attempt to url ended; probe is allow's. An attempt
// made without allow (a test delivery) is done with probe false.
func (b *breaker) done(url string, probe bool, r result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.urls[url]
	switch r {
	case succeeded:
		delete(b.urls, url)
		return
	case abandoned:
		if c != nil && probe {
			c.probing = false
		}
		return
	}
	if c == nil {
		c = &circuit{}
		b.urls[url] = c
	}
	c.failures++
	if probe {
		c.probing = false
	}
	if c.failures >= b.failures {
		c.openUntil = b.now().Add(b.coolDown)
	}
}

// limits are what an attempt must pass before it is made: a free slot
// of its account ([DefaultPerAccount]) and its URL's circuit. Both are
// per process.
type limits struct {
	accounts *parallel.InFlight
	breaker  *breaker
}

func newLimits(o Options, now func() time.Time) limits {
	perAccount, failures, coolDown := o.PerAccount, o.BreakerFailures, o.BreakerCoolDown
	if perAccount <= 0 {
		perAccount = DefaultPerAccount
	}
	if failures <= 0 {
		failures = DefaultBreakerFailures
	}
	if coolDown <= 0 {
		coolDown = DefaultBreakerCoolDown
	}
	return limits{accounts: parallel.NewInFlight(perAccount), breaker: newBreaker(failures, coolDown, now)}
}
