package sqlstore_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// quotaDay is the quota tests' UTC day.
var quotaDay = time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)

// TestQuotaStore: a take counts up to the cap and no further, a raised
// cap admits more, pools and days count apart; the date column holds
// the UTC day whatever the zone of the time handed in (pgx would write a
// time's calendar date in its own zone), so the same UTC day in another
// zone is the same row; a TakeAll of no draws takes nothing and is not
// full.
func TestQuotaStore(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Quotas()
		day := quotaDay
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

		sameDay := day.In(time.FixedZone("UTC-5", -5*3600)) // Jan 1st, 19:00 there
		for i, d := range []time.Time{day, sameDay, day} {
			if used, ok, err := s.Take(ctx, "zoned", d, 10); err != nil || !ok || used != i+1 {
				t.Fatalf("zoned take %d: %d, %v, %v; want %d", i, used, ok, err, i+1)
			}
		}
		for _, d := range []time.Time{day, sameDay} {
			if used, err := s.Used(ctx, "zoned", d); err != nil || used != 3 {
				t.Errorf("Used(zoned, %v) = %d, %v; want 3", d, used, err)
			}
		}
		if used, full, err := s.TakeAll(ctx, day, nil); err != nil || full != -1 || len(used) != 0 {
			t.Errorf("TakeAll(no draws) = %v, full %d, %v; want nothing taken", used, full, err)
		}
	})
}

// TestQuotaStoreTakeAll: one run counts in every pool or in none, and
// concurrent takes never pass either cap.
func TestQuotaStoreTakeAll(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Quotas()
		day := quotaDay
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
		var ok atomic.Int64
		start := make(chan struct{})
		for range 20 {
			wg.Go(func() {
				<-start
				_, full, err := s.TakeAll(ctx, day, []quota.Draw{a, b})
				if err != nil {
					t.Error(err)
					return
				}
				if full < 0 {
					ok.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		ua, erra := s.Used(ctx, "a", day)
		ub, errb := s.Used(ctx, "b", day)
		if ok.Load() != 5 || ua != 5 || ub != 5 || erra != nil || errb != nil {
			t.Errorf("%d draws succeeded, a used %d (%v), b used %d (%v); want 5, 5, 5", ok.Load(), ua, erra, ub, errb)
		}
	})
}

// TestQuotaTakeAllNodes: draws from many goroutines on several nodes at
// once (handles on one SQLite file, pools on one PostgreSQL database)
// never pass a cap, and draws naming the same pools in opposite orders
// do not deadlock.
func TestQuotaTakeAllNodes(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 3, nil)
			day := quotaDay
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
			ua, erra := nodes[0].Quotas().Used(ctx, "a", day)
			ub, errb := nodes[1].Quotas().Used(ctx, "b", day)
			if ok.Load() != 10 || ua != 10 || ub != 10 || erra != nil || errb != nil {
				t.Errorf("%d draws succeeded, a used %d (%v), b used %d (%v); want 10, 10, 10", ok.Load(), ua, erra, ub, errb)
			}
		})
	}
}

// TestTakeInTransaction: a take counts in the caller's transaction
// ([sqlstore.Tx.TakeRun]), which sees its own count and whose rollback
// undoes it; TakeAll takes its draws in one transaction, reports as full
// the first draw, in the order given, that is at its cap (a pool drawn
// twice is full at its second draw) even when it takes the pools in
// another order (by name), and leaves every pool as it was.
func TestTakeInTransaction(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		s := db.Quotas()
		day := quotaDay
		rollback := errors.New("roll back")
		err := db.WriteTx(ctx, func(tx *sqlstore.Tx) error {
			count := project.RunCount{Pool: "p", Day: day, Cap: 5}
			for want := 1; want <= 2; want++ {
				if used, ok, err := tx.TakeRun(ctx, count); err != nil || !ok || used != want {
					t.Errorf("take %d in the transaction = %d, %v, %v; want %d", want, used, ok, err, want)
				}
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("WriteTx = %v, want the rollback", err)
		}
		if used, err := s.Used(ctx, "p", day); err != nil || used != 0 {
			t.Errorf("Used(p) after rollback = %d, %v; want 0", used, err)
		}

		steps := []struct {
			name     string
			draws    []quota.Draw
			wantUsed []int
			wantFull int
		}{
			{"q's second draw", []quota.Draw{{Pool: "p", Cap: 5}, {Pool: "q", Cap: 1}, {Pool: "q", Cap: 1}}, nil, 2},
			{"room in both", []quota.Draw{{Pool: "b", Cap: 1}, {Pool: "a", Cap: 1}}, []int{1, 1}, -1},
			{"both full: b, given first", []quota.Draw{{Pool: "b", Cap: 1}, {Pool: "a", Cap: 1}}, nil, 0},
			{"a full, given second", []quota.Draw{{Pool: "b", Cap: 5}, {Pool: "a", Cap: 1}}, nil, 1},
		}
		for _, st := range steps {
			used, full, err := s.TakeAll(ctx, day, st.draws)
			if err != nil || full != st.wantFull || !slices.Equal(used, st.wantUsed) {
				t.Errorf("%s: TakeAll = %v, full %d, %v; want %v, full %d", st.name, used, full, err, st.wantUsed, st.wantFull)
			}
		}
		for pool, want := range map[string]int{"p": 0, "q": 0, "a": 1, "b": 1} {
			if used, err := s.Used(ctx, pool, day); err != nil || used != want {
				t.Errorf("Used(%s) after the draws = %d, %v; want %d", pool, used, err, want)
			}
		}
	})
}
