package scaling

import (
	"time"

	"golang.org/x/sys/unix"
)

// clock returns the CPU time of the calling thread: [Linear] locks fn's
// goroutine to its thread, so the difference of two readings is the time
// fn computed, not the time it waited for a core. Where the kernel
// refuses the thread clock, it is the wall clock, which only makes the
// check stricter under load.
func clock() func() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return wallClock
	}
	return func() time.Duration {
		_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		return time.Duration(ts.Nano())
	}
}
