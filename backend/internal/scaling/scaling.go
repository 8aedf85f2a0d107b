// Package scaling checks, in tests, that the time a function takes grows
// in proportion to its input. It sets no time budget: a budget fails on a
// busy or slow machine and lets a quadratic algorithm through on a fast
// one, while the ratio between two sizes of the same input does neither.
// Speed itself is measured by benchmarks.
package scaling

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/race"
)

// Factor is how many times larger the large input is than the small one.
const Factor = 32

// maxRatio is the largest time ratio [Linear] accepts between the two
// sizes: eight times linear growth (Factor), where quadratic growth gives
// Factor² = 1024. The room is wide because linear work does slow down per
// item as its input outgrows a cache (three times over, measured on the
// ASS reader) and as the collector has more to do.
const maxRatio = 8 * Factor

// runs is how often each size runs in one measurement. The fastest run
// counts, and the two sizes alternate, so a burst of load on the machine
// hits both alike.
const runs = 5

// attempts is how many measurements [Linear] takes before it fails. A
// quadratic algorithm exceeds maxRatio in every one (Factor² is four
// times maxRatio), while a measurement spoilt by the machine (another
// test binary's collector flushing the caches through all five large
// runs) is not repeated three times over.
const attempts = 3

// Linear builds the input of size n and of size Factor·n with build, runs
// fn on each, and fails t when the large one takes more than maxRatio
// times as long as the small one in each of [attempts] measurements.
// Choose n so that the small run takes a millisecond or more: below that,
// timer resolution and fixed costs blur the ratio. fn runs on one
// goroutine, locked to its thread, and is timed by that thread's CPU
// time where the system keeps it (see [clock]): time the thread
// spends waiting for a core, which load on the machine sets, is not
// fn's.
//
// Under the race detector it skips: the detector's instrumentation of
// memory, not the code, then sets how time grows with a large heap (a
// linear reader measured 39 times slower for 32 times the input without
// it, 341 times with it). make test runs every test that calls Linear
// again without -race (see package race).
func Linear[In any](t testing.TB, n int, build func(n int) In, fn func(In)) {
	t.Helper()
	race.Skip(t, "a scaling check times the code, which the detector slows unevenly")
	small, large := build(n), build(Factor*n)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var seen []string
	for range attempts {
		best := measure(small, large, fn)
		ratio := float64(best[1]) / float64(max(best[0], time.Microsecond))
		if ratio <= maxRatio {
			return
		}
		seen = append(seen, fmt.Sprintf("%.1f times (%v against %v)", ratio, best[1], best[0]))
	}
	t.Errorf("%d times the input took, in %d measurements, %s; linear work takes about %d",
		Factor, attempts, strings.Join(seen, ", "), Factor)
}

// measure runs fn on small and large [runs] times each, alternating, and
// returns the fastest time of each.
func measure[In any](small, large In, fn func(In)) [2]time.Duration {
	now := clock()
	best := [2]time.Duration{}
	for r := range runs {
		for i, in := range [2]In{small, large} {
			// Each run starts from a collected heap, so neither pays for
			// the other's garbage.
			runtime.GC()
			start := now()
			fn(in)
			if d := now() - start; r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	return best
}

// wallClock reads the wall clock as a duration, for [clock]'s fallback.
func wallClock() time.Duration { return time.Duration(time.Now().UnixNano()) }
