package postgres

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/quota"
)

func TestQuotaStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	next := day.AddDate(0, 0, 1)
	// The same UTC day in another zone is the same row.
	sameDay := day.In(time.FixedZone("UTC-5", -5*3600))

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
		{"take", "p", sameDay, 2, 2, true},
		{"take", "p", day, 2, 0, false},
		{"used", "p", day, 0, 2, true},
		{"take", "p", day, 3, 3, true},  // a raised cap admits more
		{"take", "q", day, 2, 1, true},  // pools are separate
		{"take", "p", next, 2, 1, true}, // days are separate
		{"take", "p", day, 3, 0, false}, // full again
		{"used", "p", day, 0, 3, true},
		{"used", "p", sameDay, 0, 3, true},
		{"used", "q", day, 0, 1, true},
		{"used", "p", next, 0, 1, true},
	}
	for i, st := range steps {
		switch st.op {
		case "take":
			used, ok, err := s.Take(ctx, st.pool, st.day, st.cap)
			checkKind(t, err, apperr.Internal)
			if used != st.wantUsed || ok != st.wantOK {
				t.Fatalf("step %d: Take(%s, cap %d) = %d, %v; want %d, %v", i, st.pool, st.cap, used, ok, st.wantUsed, st.wantOK)
			}
		case "used":
			used, err := s.Used(ctx, st.pool, st.day)
			checkKind(t, err, apperr.Internal)
			if used != st.wantUsed {
				t.Fatalf("step %d: Used(%s) = %d, want %d", i, st.pool, used, st.wantUsed)
			}
		}
	}
}

// TestQuotaStoreTakeAll: one run counts in every pool or in none.
func TestQuotaStoreTakeAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	runs, explains := quota.Draw{Pool: "runs", Cap: 3}, quota.Draw{Pool: "explain", Cap: 2}
	tiny := quota.Draw{Pool: "a-tiny", Cap: 1}
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
		{[]quota.Draw{tiny}, []int{1}, -1},
		// Both full: the first in draws' order, whatever the names' order.
		{[]quota.Draw{explains, tiny}, nil, 0},
		{[]quota.Draw{tiny, explains}, nil, 0},
		{[]quota.Draw{}, []int{}, -1},
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
	for pool, want := range map[string]int{"runs": 3, "explain": 2, "a-tiny": 1} {
		if got, err := s.Used(ctx, pool, day); err != nil || got != want {
			t.Errorf("Used(%s) = %d, %v; want %d", pool, got, err, want)
		}
	}
}

// TestQuotaTakeAllNodes: draws from many goroutines on several nodes at
// once never pass a cap, and draws naming the same pools in opposite
// orders do not deadlock.
func TestQuotaTakeAllNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	a, b := quota.Draw{Pool: "a", Cap: 25}, quota.Draw{Pool: "b", Cap: 10}
	var ok atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		draws := []quota.Draw{a, b}
		if i%2 == 1 {
			draws = []quota.Draw{b, a}
		}
		s := nodes[i%len(nodes)].Quotas()
		wg.Go(func() {
			<-start
			used, full, err := s.TakeAll(ctx, day, draws)
			if err != nil {
				t.Error(err)
				return
			}
			if full < 0 {
				ok.Add(1)
				if len(used) != 2 {
					t.Errorf("used = %v", used)
				}
			} else if draws[full].Pool != "b" {
				t.Errorf("full = %s, want b (a has room for all)", draws[full].Pool)
			}
		})
	}
	close(start)
	wg.Wait()
	ua, _ := nodes[0].Quotas().Used(ctx, "a", day)
	ub, _ := nodes[1].Quotas().Used(ctx, "b", day)
	if ok.Load() != 10 || ua != 10 || ub != 10 {
		t.Errorf("%d draws succeeded, a used %d, b used %d; want 10, 10, 10", ok.Load(), ua, ub)
	}
}

// TestTakeInTransaction: take counts in the caller's transaction, which
// a rollback undoes.
func TestTakeInTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if used, ok, err := take(ctx, tx, "p", day, 5); err != nil || !ok || used != 1 {
		t.Fatalf("take = %d, %v, %v; want 1", used, ok, err)
	}
	if _, full, err := takeAll(ctx, tx, day, []quota.Draw{{Pool: "p", Cap: 5}, {Pool: "q", Cap: 1}, {Pool: "q", Cap: 1}}); err != nil || full != 2 {
		t.Fatalf("takeAll = full %d, %v; want 2 (q's second draw)", full, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pool := range []string{"p", "q"} {
		if used, err := db.Quotas().Used(ctx, pool, day); err != nil || used != 0 {
			t.Errorf("Used(%s) after rollback = %d, %v; want 0", pool, used, err)
		}
	}
}
