package webhook

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const hookURL = "https://hooks.example.com/captionqa"

// mustAllow asks b for an attempt to url and fails the test unless it is
// let through, as a probe or not as want says.
func mustAllow(t *testing.T, b *breaker, url string, wantProbe bool) {
	t.Helper()
	ok, probe, until := b.allow(url)
	if !ok || probe != wantProbe {
		t.Fatalf("allow(%s): ok %v probe %v until %v; want let through, probe %v", url, ok, probe, until, wantProbe)
	}
}

// mustRefuse asks b for an attempt to url and fails the test unless it
// is refused until want.
func mustRefuse(t *testing.T, b *breaker, url string, want time.Time) {
	t.Helper()
	ok, _, until := b.allow(url)
	if ok || !until.Equal(want) {
		t.Fatalf("allow(%s): ok %v until %v; want refused until %v", url, ok, until, want)
	}
}

// TestBreakerOpensAndCloses: five failures in a row open a URL's circuit
// (four do not, and a success in between starts the count again); while
// open every attempt is refused until the cool-down's end; then one probe
// goes through, others wait for it; a failed probe opens the circuit for
// another cool-down, a successful one closes it. Other URLs are not
// affected.
func TestBreakerOpensAndCloses(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	b := newBreaker(5, time.Minute, clock.now)
	fail := func(n int) {
		for range n {
			mustAllow(t, b, hookURL, false)
			b.done(hookURL, false, failed)
		}
	}

	fail(4)
	mustAllow(t, b, hookURL, false)
	b.done(hookURL, false, succeeded)
	fail(4) // the success reset the count: still closed
	mustAllow(t, b, hookURL, false)
	b.done(hookURL, false, failed) // the fifth in a row
	openedAt := clock.now()
	mustRefuse(t, b, hookURL, openedAt.Add(time.Minute))
	mustAllow(t, b, "https://other.example.com/hook", false)

	clock.advance(59 * time.Second)
	mustRefuse(t, b, hookURL, openedAt.Add(time.Minute))

	clock.advance(time.Second) // the cool-down is over: half-open
	mustAllow(t, b, hookURL, true)
	mustRefuse(t, b, hookURL, clock.now().Add(BusyWait)) // the probe is in flight
	b.done(hookURL, true, failed)
	reopened := clock.now()
	mustRefuse(t, b, hookURL, reopened.Add(time.Minute))

	clock.advance(time.Minute)
	mustAllow(t, b, hookURL, true)
	b.done(hookURL, true, abandoned) // a shutdown cut it off: counts nothing
	mustAllow(t, b, hookURL, true)   // so the next is the probe
	b.done(hookURL, true, succeeded)
	for range 4 { // closed, with the count from zero
		mustAllow(t, b, hookURL, false)
		b.done(hookURL, false, failed)
	}
	mustAllow(t, b, hookURL, false)
	if len(b.urls) != 1 {
		t.Errorf("circuits %v; want only the failing URL's", b.urls)
	}
}

// TestBreakerSuccessElsewhereCloses: a success to the URL made without
// the breaker's leave (a test delivery) closes an open circuit at once.
func TestBreakerSuccessElsewhereCloses(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	b := newBreaker(2, time.Minute, clock.now)
	for range 2 {
		b.done(hookURL, false, failed)
	}
	mustRefuse(t, b, hookURL, clock.now().Add(time.Minute))
	b.done(hookURL, false, succeeded)
	mustAllow(t, b, hookURL, false)
	if len(b.urls) != 0 {
		t.Errorf("circuits %v; want none after the success", b.urls)
	}
}
