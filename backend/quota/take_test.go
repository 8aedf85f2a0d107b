package quota_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/quota"
)

func newService(t *testing.T, at time.Time) (*quota.Service, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(at)
	return quota.NewService(testkit.MustOpenDB(t).Quotas(), quota.Options{Now: clock.Now}), clock
}

func TestTakeExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	var ok, exceeded atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			_, err := svc.Take(ctx, "account:x", 10)
			switch {
			case err == nil:
				ok.Add(1)
			case apperr.KindOf(err) == apperr.QuotaExceeded:
				exceeded.Add(1)
			default:
				t.Errorf("Take: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 10 || exceeded.Load() != 40 {
		t.Errorf("%d taken, %d refused; want exactly 10 and 40", ok.Load(), exceeded.Load())
	}
	u, err := svc.Usage(ctx, "account:x", 10)
	if err != nil || u.Used != 10 || u.Remaining != 0 {
		t.Errorf("Usage = %+v, %v; want 10 used, 0 remaining", u, err)
	}
}

func TestTakeAndCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cap      int
		taken    int   // runs taken first
		checks   int   // Check calls, which count nothing
		wantLeft []int // remaining reported by each further Take; -1: refused
	}{
		{"first run of the day", 3, 0, 1, []int{2, 1, 0, -1}},
		{"checks count nothing", 2, 1, 5, []int{0, -1}},
		{"full pool", 2, 2, 0, []int{-1}},
		{"cap raised above use", 4, 2, 0, []int{1, 0, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
			for range tt.taken {
				if _, err := svc.Take(ctx, "p", 2); err != nil {
					t.Fatal(err)
				}
			}
			for range tt.checks {
				if err := svc.Check(ctx, "p", tt.cap); err != nil {
					t.Fatalf("Check with room left: %v", err)
				}
			}
			for i, want := range tt.wantLeft {
				left, err := svc.Take(ctx, "p", tt.cap)
				if want < 0 {
					if apperr.KindOf(err) != apperr.QuotaExceeded {
						t.Fatalf("Take %d: %d, %v; want quota_exceeded", i, left, err)
					}
					if err := svc.Check(ctx, "p", tt.cap); apperr.KindOf(err) != apperr.QuotaExceeded {
						t.Fatalf("Check on a full pool: %v; want quota_exceeded", err)
					}
					continue
				}
				if err != nil || left != want {
					t.Fatalf("Take %d = %d, %v; want %d remaining", i, left, err, want)
				}
			}
		})
	}
}

func TestQuotaExceededDetails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cap  int
		take int // runs taken first
	}{
		{"pool full", 2, 2},
		{"zero cap", 0, 0},
		{"negative cap", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			svc, _ := newService(t, time.Date(2026, 7, 8, 9, 10, 11, 0, time.UTC))
			for range tt.take {
				if _, err := svc.Take(ctx, "p", tt.cap); err != nil {
					t.Fatal(err)
				}
			}
			_, takeErr := svc.Take(ctx, "p", tt.cap)
			for name, err := range map[string]error{"Take": takeErr, "Check": svc.Check(ctx, "p", tt.cap)} {
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.QuotaExceeded {
					t.Fatalf("%s: %v, want quota_exceeded", name, err)
				}
				if e.Details["cap"] != tt.cap || e.Details["resetsAt"] != "2026-07-09T00:00:00Z" {
					t.Errorf("%s details = %v, want cap %d and resetsAt 2026-07-09T00:00:00Z", name, e.Details, tt.cap)
				}
			}
		})
	}
}

func TestTakeUTCDayBoundary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// 23:59:59 UTC is still the first day, whatever the local zone says.
	late := time.Date(2026, 3, 1, 23, 59, 59, 0, time.UTC).In(time.FixedZone("UTC+5", 5*3600))
	svc, clock := newService(t, late)

	for range 2 {
		if _, err := svc.Take(ctx, "p", 2); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Take(ctx, "p", 2); apperr.KindOf(err) != apperr.QuotaExceeded {
		t.Fatalf("third run before midnight: %v, want quota_exceeded", err)
	}
	u, _ := svc.Usage(ctx, "p", 2)
	if want := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC); u.Used != 2 || !u.ResetsAt.Equal(want) || u.ResetsAt.Location() != time.UTC {
		t.Errorf("usage before midnight = %+v, want 2 used, resets at %v UTC", u, want)
	}

	clock.Advance(time.Second) // 00:00:00 UTC
	u, _ = svc.Usage(ctx, "p", 2)
	if want := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC); u.Used != 0 || u.Remaining != 2 || !u.ResetsAt.Equal(want) {
		t.Errorf("usage after midnight = %+v, want a fresh pool resetting at %v", u, want)
	}
	if left, err := svc.Take(ctx, "p", 2); err != nil || left != 1 {
		t.Errorf("first run after midnight = %d, %v; want 1 remaining", left, err)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _ := newService(t, time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC))
	for range 3 {
		if _, err := svc.Take(ctx, "p", 10); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name               string
		pool               string
		cap                int
		wantUsed, wantLeft int
	}{
		{"partly used", "p", 10, 3, 7},
		{"cap lowered below use", "p", 2, 3, 0},
		{"untouched pool", "q", 5, 0, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, err := svc.Usage(ctx, tt.pool, tt.cap)
			if err != nil {
				t.Fatal(err)
			}
			want := quota.Usage{Cap: tt.cap, Used: tt.wantUsed, Remaining: tt.wantLeft, ResetsAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
			if u.Cap != want.Cap || u.Used != want.Used || u.Remaining != want.Remaining || !u.ResetsAt.Equal(want.ResetsAt) {
				t.Errorf("Usage = %+v, want %+v", u, want)
			}
		})
	}
}
