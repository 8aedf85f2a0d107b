package webhook

import (
	"math/rand/v2"
	"time"
)

// Schedule is when failed attempts are retried: the first retry First
// after the first failure, each later wait doubled up to Cap, every wait
// varied by ±Jitter (a fraction) so receivers coming back are not hit by
// every delivery at once; retries stop once the next attempt would fall
// more than Window after the run of attempts began.
type Schedule struct {
	First  time.Duration
	Cap    time.Duration
	Window time.Duration
	Jitter float64
}

// DefaultSchedule retries after 10 s, 20 s, 40 s ... doubling to one an
// hour, each wait varied by up to 20%, for 3 days: a receiver down over a
// weekend still gets every export. That is about 80 attempts in all.
func DefaultSchedule() Schedule {
	return Schedule{First: 10 * time.Second, Cap: time.Hour, Window: 72 * time.Hour, Jitter: 0.2}
}

// wait returns the wait after the failed attempt number attempts (from
// 1), with r in [0, 1) choosing the jitter.
func (s Schedule) wait(attempts int, r float64) time.Duration {
	d := s.First
	for i := 1; i < attempts && d < s.Cap; i++ {
		d *= 2
	}
	d = min(d, s.Cap)
	return time.Duration(float64(d) * (1 - s.Jitter + 2*s.Jitter*r))
}

// next returns when the delivery whose failed attempts number attempts,
// the last at now, is tried again, and false when the window is over.
func (s Schedule) next(attempts int, windowStart, now time.Time) (time.Time, bool) {
	at := now.Add(s.wait(attempts, rand.Float64()))
	return at, at.Sub(windowStart) <= s.Window
}
