package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// Snooze is what a worker registered with [HandleTimed] returns to have
// its job run again after d without counting a failed attempt, and
// without holding a worker slot meanwhile (River's snooze).
func Snooze(d time.Duration) error { return river.JobSnooze(d) }
