package quota_test

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/quota"
)

func TestFailures(t *testing.T) {
	t.Parallel()
	clock := testkit.NewClock(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	f := quota.NewFailures(quota.FailureOptions{Now: clock.Now, Free: 3, Delay: time.Second, MaxDelay: 4 * time.Second})
	const key = "owner@localhost|127.0.0.1"
	for i := range 3 {
		if err := f.Check(key); err != nil {
			t.Fatalf("free failure %d: %v", i+1, err)
		}
		f.Fail(key)
	}
	if err := f.Check(key); err != nil {
		t.Fatalf("after the free failures, before a paying one: %v", err)
	}
	// Each further failure pauses the key: 1 s, 2 s, 4 s, then 4 s.
	for _, want := range []int{1, 2, 4, 4, 4} {
		f.Fail(key)
		err := f.Check(key)
		e, ok := apperr.As(err)
		if !ok || e.Kind != apperr.RateLimited || e.Details["retryAfterSeconds"] != want {
			t.Fatalf("pause = %v; want rate_limited for %d s", err, want)
		}
		// A refused attempt is not a failure: the pause does not grow.
		clock.Advance(time.Duration(want)*time.Second - time.Millisecond)
		if f.Check(key) == nil {
			t.Fatalf("free before the %d s pause ended", want)
		}
		clock.Advance(time.Millisecond)
		if err := f.Check(key); err != nil {
			t.Fatalf("still paused after %d s: %v", want, err)
		}
	}
	// Other keys are untouched; success forgets.
	if err := f.Check("owner@localhost|10.0.0.9"); err != nil {
		t.Errorf("another address: %v", err)
	}
	f.Succeed(key)
	f.Fail(key)
	if err := f.Check(key); err != nil {
		t.Errorf("after a success the count restarts: %v", err)
	}
}
