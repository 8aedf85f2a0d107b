package server

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: the defaults apply unless the user set GOGC or GOMEMLIMIT.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	for _, tc := range []struct {
		gogc, memlimit string
		percent        int
		limit          int64
	}{
		{"", "", gcPercent, memoryLimit},
		{"150", "", 100, memoryLimit},
		{"", "2GiB", gcPercent, 1 << 40},
	} {
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.memlimit)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(1 << 40)
		TuneGC()
		if got := debug.SetGCPercent(100); got != tc.percent {
			t.Errorf("GOGC=%q: GC percent %d, want %d", tc.gogc, got, tc.percent)
		}
		if got := debug.SetMemoryLimit(-1); got != tc.limit {
			t.Errorf("GOMEMLIMIT=%q: memory limit %d, want %d", tc.memlimit, got, tc.limit)
		}
	}
}
