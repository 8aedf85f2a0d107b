package scaling

import (
	"testing"

	"github.com/captionqa/captionqa/backend/internal/race"
)

// recorder is a testing.TB that keeps whether the check failed.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

// work does n·k steps of arithmetic the compiler cannot drop.
func work(n, k int) int {
	s := 0
	for i := range n * k {
		s += i ^ (s >> 3)
	}
	return s
}

var sink int

func TestLinear(t *testing.T) {
	// Not parallel: the package's other tests would collect and
	// allocate through the timed runs (see package scaling).
	race.Skip(t, "Linear skips under the detector")
	tests := []struct {
		name     string
		n        int
		steps    func(n int) int // work done for an input of size n
		wantFail bool
	}{
		{"linear", 20_000, func(n int) int { return work(n, 40) }, false},
		{"linear with a fixed cost", 20_000, func(n int) int { return work(n, 40) + work(20_000, 40) }, false},
		{"quadratic", 5_000, func(n int) int { return work(n, n/400) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Linear(r, tt.n, func(n int) int { return n }, func(n int) { sink += tt.steps(n) })
			if r.failed != tt.wantFail {
				t.Errorf("failed = %v, want %v", r.failed, tt.wantFail)
			}
		})
	}
}
