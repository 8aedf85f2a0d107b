package postgres

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

// TestQuotaStore: the date column holds the UTC day whatever the zone
// of the time handed in (pgx would write a time's calendar date in its
// own zone), so the same UTC day in another zone is the same row; a
// TakeAll of no draws takes nothing and is not full.
func TestQuotaStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	sameDay := day.In(time.FixedZone("UTC-5", -5*3600)) // Jan 1st, 19:00 there
	for i, d := range []time.Time{day, sameDay, day} {
		if used, ok, err := s.Take(ctx, "p", d, 10); err != nil || !ok || used != i+1 {
			t.Fatalf("take %d: %d, %v, %v; want %d", i, used, ok, err, i+1)
		}
	}
	for _, d := range []time.Time{day, sameDay} {
		if used, err := s.Used(ctx, "p", d); err != nil || used != 3 {
			t.Errorf("Used(%v) = %d, %v; want 3", d, used, err)
		}
	}
	if used, full, err := s.TakeAll(ctx, day, nil); err != nil || full != -1 || len(used) != 0 {
		t.Errorf("TakeAll(no draws) = %v, full %d, %v; want nothing taken", used, full, err)
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
