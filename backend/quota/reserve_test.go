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

func TestReserveExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	var ok, exceeded atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			r, err := svc.Reserve(ctx, "account:x", 10)
			switch apperr.KindOf(err) {
			case apperr.Internal:
				if err != nil {
					t.Errorf("Reserve: %v", err)
					return
				}
				ok.Add(1)
				if _, err := r.Commit(ctx); err != nil {
					t.Errorf("Commit: %v", err)
				}
			case apperr.QuotaExceeded:
				exceeded.Add(1)
			default:
				t.Errorf("Reserve: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 10 || exceeded.Load() != 40 {
		t.Errorf("%d reserved, %d refused; want exactly 10 and 40", ok.Load(), exceeded.Load())
	}
	u, err := svc.Usage(ctx, "account:x", 10)
	if err != nil || u.Used != 10 || u.Remaining != 0 {
		t.Errorf("Usage = %+v, %v; want 10 used, 0 remaining", u, err)
	}
}

func TestReserveWithFailuresStaysExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	// Half the runs fail and give their unit back; the pool ends full
	// with exactly cap committed runs however the goroutines interleave.
	var committed atomic.Int64
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			r, err := svc.Reserve(ctx, "p", 10)
			if err != nil {
				if apperr.KindOf(err) != apperr.QuotaExceeded {
					t.Errorf("Reserve: %v", err)
				}
				return
			}
			if i%2 == 0 {
				if err := r.Release(ctx); err != nil {
					t.Errorf("Release: %v", err)
				}
				return
			}
			if _, err := r.Commit(ctx); err != nil {
				t.Errorf("Commit: %v", err)
			}
			committed.Add(1)
		})
	}
	wg.Wait()
	u, _ := svc.Usage(ctx, "p", 10)
	if int64(u.Used) != committed.Load() || u.Used > 10 {
		t.Errorf("used %d, committed %d; want equal and at most 10", u.Used, committed.Load())
	}
}

func TestReservationLifecycle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		actions  []string // commit, release
		wantUsed int
		wantLeft []int // remaining reported by each commit
	}{
		{"commit keeps the run", []string{"commit"}, 1, []int{1}},
		{"release gives it back", []string{"release"}, 0, nil},
		{"second release is a no-op", []string{"release", "release"}, 0, nil},
		{"release after commit is a no-op", []string{"commit", "release"}, 1, []int{1}},
		{"second commit is a no-op", []string{"commit", "commit"}, 1, []int{1, 1}},
		{"commit after release keeps nothing", []string{"release", "commit"}, 0, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
			// Another run already holds a unit, so a double release
			// would show up as a count below 1 + wantUsed.
			other, err := svc.Reserve(ctx, "p", 3)
			if err != nil {
				t.Fatal(err)
			}
			r, err := svc.Reserve(ctx, "p", 3)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := other.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			var left []int
			for _, a := range tt.actions {
				switch a {
				case "commit":
					n, err := r.Commit(ctx)
					if err != nil {
						t.Fatal(err)
					}
					left = append(left, n)
				case "release":
					if err := r.Release(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			u, err := svc.Usage(ctx, "p", 3)
			if err != nil || u.Used != 1+tt.wantUsed {
				t.Errorf("used = %d, %v; want %d", u.Used, err, 1+tt.wantUsed)
			}
			if len(left) != len(tt.wantLeft) {
				t.Fatalf("commits reported %v, want %v", left, tt.wantLeft)
			}
			for i := range left {
				if left[i] != tt.wantLeft[i] {
					t.Errorf("commit %d reported %d remaining, want %d", i, left[i], tt.wantLeft[i])
				}
			}
		})
	}
}

func TestReleaseWithCancelledContext(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	r, err := svc.Reserve(context.Background(), "p", 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client went away: the usual reason to release
	if err := r.Release(ctx); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if _, err := svc.Reserve(context.Background(), "p", 1); err != nil {
		t.Errorf("unit not given back: %v", err)
	}
}

func TestReserveQuotaExceededDetails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cap  int
		hold int // reservations made first
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
			for range tt.hold {
				if _, err := svc.Reserve(ctx, "p", tt.cap); err != nil {
					t.Fatal(err)
				}
			}
			_, err := svc.Reserve(ctx, "p", tt.cap)
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.QuotaExceeded {
				t.Fatalf("Reserve: %v, want quota_exceeded", err)
			}
			if e.Details["cap"] != tt.cap || e.Details["resetsAt"] != "2026-07-09T00:00:00Z" {
				t.Errorf("details = %v, want cap %d and resetsAt 2026-07-09T00:00:00Z", e.Details, tt.cap)
			}
		})
	}
}

func TestReserveUTCDayBoundary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// 23:59:59 UTC is still the first day, whatever the local zone says.
	late := time.Date(2026, 3, 1, 23, 59, 59, 0, time.UTC).In(time.FixedZone("UTC+5", 5*3600))
	svc, clock := newService(t, late)

	held, err := svc.Reserve(ctx, "p", 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Reserve(ctx, "p", 2); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Reserve(ctx, "p", 2); apperr.KindOf(err) != apperr.QuotaExceeded {
		t.Fatalf("third reservation before midnight: %v, want quota_exceeded", err)
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
	fresh, err := svc.Reserve(ctx, "p", 2)
	if err != nil {
		t.Fatalf("first reservation after midnight: %v", err)
	}
	// Releasing yesterday's run gives it back to yesterday, not today.
	if err := held.Release(ctx); err != nil {
		t.Fatal(err)
	}
	u, _ = svc.Usage(ctx, "p", 2)
	if u.Used != 1 {
		t.Errorf("today's used = %d after releasing yesterday's run, want 1", u.Used)
	}
	if left, err := fresh.Commit(ctx); err != nil || left != 1 {
		t.Errorf("Commit = %d, %v; want 1 remaining today", left, err)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _ := newService(t, time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC))
	for range 3 {
		if _, err := svc.Reserve(ctx, "p", 10); err != nil {
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
