// Package gctune sets the Go garbage collector for CaptionQA's load. It is
// a leaf, so main, the server and the benchmarks of any package apply the
// same settings.
package gctune

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Garbage collector defaults for CaptionQA's load, used unless the user
// sets GOGC or GOMEMLIMIT.
const (
	// gcPercent collects when the heap has grown by four times what was
	// live, rather than Go's one. Processing a file allocates several
	// times its size in short-lived tracks, findings and output, while the
	// heap between requests is a few megabytes: with the default, a 4 MiB
	// file is collected over and over while it is processed, and every
	// copy of a cue meanwhile pays the collector's write barriers.
	gcPercent = 400
	// memoryLimit is the soft limit near which the collector works harder
	// whatever gcPercent says, so the larger growth never runs away.
	memoryLimit = 1 << 30
)

// cgroupMemoryMax is where a container's memory limit is (cgroup v2).
const cgroupMemoryMax = "/sys/fs/cgroup/memory.max"

// Apply applies the garbage collector defaults to this process; main calls
// it before any command runs, and the engine's and the API's benchmarks
// too, so that they measure the program as it runs. In a container allowed less than
// memoryLimit, the soft limit is three quarters of what it is allowed.
func Apply() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softLimit(cgroupMemoryMax))
	}
}

// softLimit returns memoryLimit, or three quarters of the limit the cgroup
// file at path sets when that is lower ("max" or no file sets none).
func softLimit(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return memoryLimit
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 {
		return memoryLimit
	}
	return min(memoryLimit, n/4*3)
}
