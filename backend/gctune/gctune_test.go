package gctune

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestApply: the defaults apply unless the user set GOGC or GOMEMLIMIT.
func TestApply(t *testing.T) {
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
		{"", "", gcPercent, softLimit(cgroupMemoryMax)},
		{"150", "", 100, softLimit(cgroupMemoryMax)},
		{"", "2GiB", gcPercent, 1 << 40},
	} {
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.memlimit)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(1 << 40)
		Apply()
		if got := debug.SetGCPercent(100); got != tc.percent {
			t.Errorf("GOGC=%q: GC percent %d, want %d", tc.gogc, got, tc.percent)
		}
		if got := debug.SetMemoryLimit(-1); got != tc.limit {
			t.Errorf("GOMEMLIMIT=%q: memory limit %d, want %d", tc.memlimit, got, tc.limit)
		}
	}
}

// TestSoftLimit: a container's memory limit lowers the soft limit to three
// quarters of it; no limit, "max" or an unreadable file leave 1 GiB.
func TestSoftLimit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		content string
		want    int64
	}{
		{"536870912\n", 402653184},
		{"max\n", memoryLimit},
		{"8589934592\n", memoryLimit},
		{"nonsense", memoryLimit},
		{"", memoryLimit},
	} {
		path := filepath.Join(dir, "memory.max")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := softLimit(path); got != tc.want {
			t.Errorf("memory.max %q: soft limit %d, want %d", tc.content, got, tc.want)
		}
	}
	if got := softLimit(filepath.Join(dir, "absent")); got != memoryLimit {
		t.Errorf("no file: soft limit %d, want %d", got, memoryLimit)
	}
}
