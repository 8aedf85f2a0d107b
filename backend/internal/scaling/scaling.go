// Package scaling checks, in tests, that the time a function takes grows
// in proportion to its input. It sets no time budget: a budget fails on a
// busy or slow machine and lets a quadratic algorithm through on a fast
// one, while the ratio between two sizes of the same input does neither.
// Speed itself is measured by benchmarks.
package scaling

import (
	"runtime"
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

// runs is how often each size runs. The fastest run counts, and the two
// sizes alternate, so a burst of load on the machine hits both alike and
// cannot fail the check by itself.
const runs = 5

// Linear builds the input of size n and of size Factor·n with build, runs
// fn on each, and fails t when the large one takes more than maxRatio
// times as long as the small one. Choose n so that the small run takes a
// millisecond or more: below that, timer resolution and fixed costs blur
// the ratio.
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
	best := [2]time.Duration{}
	for r := range runs {
		for i, in := range [2]In{small, large} {
			// Each run starts from a collected heap, so neither pays for
			// the other's garbage.
			runtime.GC()
			start := time.Now()
			fn(in)
			if d := time.Since(start); r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	ratio := float64(best[1]) / float64(max(best[0], time.Microsecond))
	if ratio > maxRatio {
		t.Errorf("%d times the input took %.1f times as long (%v against %v); linear work takes about %d",
			Factor, ratio, best[1], best[0], Factor)
	}
}
