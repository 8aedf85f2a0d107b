package sqlite_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/quota"
)

func TestQuotaStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	next := day.AddDate(0, 0, 1)

	type step struct {
		op       string // take, used
		pool     string
		day      time.Time
		cap      int
		wantUsed int
		wantOK   bool
	}
	steps := []step{
		{"used", "p", day, 0, 0, true}, // no row yet
		{"take", "p", day, 2, 1, true},
		{"take", "p", day, 2, 2, true},
		{"take", "p", day, 2, 0, false},
		{"used", "p", day, 0, 2, true},
		{"take", "p", day, 3, 3, true},  // a raised cap admits more
		{"take", "q", day, 2, 1, true},  // pools are separate
		{"take", "p", next, 2, 1, true}, // days are separate
		{"take", "p", day, 3, 0, false}, // full again
		{"used", "p", day, 0, 3, true},
		{"used", "q", day, 0, 1, true},
		{"used", "p", next, 0, 1, true},
	}
	for i, st := range steps {
		switch st.op {
		case "take":
			used, ok, err := s.Take(ctx, st.pool, st.day, st.cap)
			wantKind(t, err, apperr.Internal)
			if used != st.wantUsed || ok != st.wantOK {
				t.Fatalf("step %d: Take(%s, cap %d) = %d, %v; want %d, %v", i, st.pool, st.cap, used, ok, st.wantUsed, st.wantOK)
			}
		case "used":
			used, err := s.Used(ctx, st.pool, st.day)
			wantKind(t, err, apperr.Internal)
			if used != st.wantUsed {
				t.Fatalf("step %d: Used(%s) = %d, want %d", i, st.pool, used, st.wantUsed)
			}
		}
	}
}

// TestQuotaStoreTakeAll: one run counts in every pool or in none, and
// concurrent takes never pass either cap.
func TestQuotaStoreTakeAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	runs, explains := quota.Draw{Pool: "runs", Cap: 3}, quota.Draw{Pool: "explain", Cap: 2}
	steps := []struct {
		draws    []quota.Draw
		wantUsed []int
		wantFull int
	}{
		{[]quota.Draw{runs, explains}, []int{1, 1}, -1},
		{[]quota.Draw{runs, explains}, []int{2, 2}, -1},
		{[]quota.Draw{runs, explains}, nil, 1}, // explain is full: runs stays at 2
		{[]quota.Draw{runs}, []int{3}, -1},     // so one more run fits
		{[]quota.Draw{runs, explains}, nil, 0}, // runs full first
		{[]quota.Draw{explains}, nil, 0},
	}
	for i, st := range steps {
		used, full, err := s.TakeAll(ctx, day, st.draws)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if full != st.wantFull || !slices.Equal(used, st.wantUsed) {
			t.Errorf("step %d: used %v full %d; want %v %d", i, used, full, st.wantUsed, st.wantFull)
		}
	}
	for pool, want := range map[string]int{"runs": 3, "explain": 2} {
		if got, err := s.Used(ctx, pool, day); err != nil || got != want {
			t.Errorf("Used(%s) = %d, %v; want %d", pool, got, err, want)
		}
	}

	// Concurrent draws on fresh pools: exactly the smaller cap succeed.
	a, b := quota.Draw{Pool: "a", Cap: 7}, quota.Draw{Pool: "b", Cap: 5}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 20 {
		wg.Go(func() {
			_, full, err := s.TakeAll(ctx, day, []quota.Draw{a, b})
			if err != nil {
				t.Error(err)
				return
			}
			if full < 0 {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	ua, _ := s.Used(ctx, "a", day)
	ub, _ := s.Used(ctx, "b", day)
	if ok != 5 || ua != 5 || ub != 5 {
		t.Errorf("%d draws succeeded, a used %d, b used %d; want 5, 5, 5", ok, ua, ub)
	}
}
