//go:build !linux

package scaling

import "time"

// clock is the wall clock where no per-thread CPU clock is read (see the
// Linux variant).
func clock() func() time.Duration { return wallClock }
