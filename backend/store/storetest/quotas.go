package storetest

import (
	"slices"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

func quotaScenarios() []scenario {
	return []scenario{
		{"take and used", quotaTake},
		{"take all or none", quotaTakeAll},
		{"take concurrently", quotaTakeConcurrently},
		{"take all concurrently", quotaTakeAllConcurrently},
	}
}

// quotaTake: counts are per pool and UTC day; a full pool changes
// nothing; a raised cap admits more.
func quotaTake(e *env) {
	t, s := e.t, e.db.Quotas()
	today := day(e.now())
	tomorrow := today.AddDate(0, 0, 1)
	steps := []struct {
		op       string // take or used
		pool     string
		day      time.Time
		cap      int
		wantUsed int
		wantOK   bool
	}{
		{"used", "p", today, 0, 0, true}, // nothing counted yet
		{"take", "p", today, 2, 1, true},
		{"take", "p", today, 2, 2, true},
		{"take", "p", today, 2, 2, false},
		{"used", "p", today, 0, 2, true},
		{"take", "p", today, 3, 3, true},    // a raised cap admits more
		{"take", "q", today, 2, 1, true},    // pools are separate
		{"take", "p", tomorrow, 2, 1, true}, // days are separate
		{"take", "p", today, 3, 3, false},   // full again
		{"used", "p", today, 0, 3, true},
		{"used", "q", today, 0, 1, true},
		{"used", "p", tomorrow, 0, 1, true},
		{"used", "p", today.AddDate(0, 0, -1), 0, 0, true},
	}
	for i, st := range steps {
		switch st.op {
		case "take":
			used, ok, err := s.Take(e.ctx, st.pool, st.day, st.cap)
			must(t, err)
			// A refusal's count is not part of the contract.
			if ok != st.wantOK || ok && used != st.wantUsed {
				t.Fatalf("step %d: Take(%s, %s, cap %d) = %d, %v; want %d, %v", i, st.pool, st.day.Format(time.DateOnly),
					st.cap, used, ok, st.wantUsed, st.wantOK)
			}
		case "used":
			used, err := s.Used(e.ctx, st.pool, st.day)
			must(t, err)
			if used != st.wantUsed {
				t.Fatalf("step %d: Used(%s, %s) = %d, want %d", i, st.pool, st.day.Format(time.DateOnly), used, st.wantUsed)
			}
		}
	}
}

// quotaTakeAll: one run counts in every pool or in none.
func quotaTakeAll(e *env) {
	t, s := e.t, e.db.Quotas()
	today := day(e.now())
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
		{[]quota.Draw{runs, explains}, nil, 0}, // runs is full first
		{[]quota.Draw{explains}, nil, 0},
	}
	for i, st := range steps {
		used, full, err := s.TakeAll(e.ctx, today, st.draws)
		must(t, err)
		if full != st.wantFull || full < 0 && !slices.Equal(used, st.wantUsed) {
			t.Errorf("step %d: used %v full %d; want %v %d", i, used, full, st.wantUsed, st.wantFull)
		}
	}
	for pool, want := range map[string]int{"runs": 3, "explain": 2} {
		if got, err := s.Used(e.ctx, pool, today); err != nil || got != want {
			t.Errorf("Used(%s) = %d, %v; want %d", pool, got, err, want)
		}
	}
}

// quotaTakeConcurrently: 40 callers on a cap of 7, exactly 7 counted.
func quotaTakeConcurrently(e *env) {
	t, s := e.t, e.db.Quotas()
	today := day(e.now())
	const cap, tries = 7, 40
	var mu sync.Mutex
	taken := 0
	var wg sync.WaitGroup
	for range tries {
		wg.Go(func() {
			_, ok, err := s.Take(e.ctx, "pool", today, cap)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	used, err := s.Used(e.ctx, "pool", today)
	if taken != cap || err != nil || used != cap {
		t.Errorf("%d takes succeeded, %d counted (%v); want %d", taken, used, err, cap)
	}
}

// quotaTakeAllConcurrently: concurrent draws on two pools never pass
// either cap, and count in both or neither.
func quotaTakeAllConcurrently(e *env) {
	t, s := e.t, e.db.Quotas()
	today := day(e.now())
	a, b := quota.Draw{Pool: "a", Cap: 7}, quota.Draw{Pool: "b", Cap: 5}
	var mu sync.Mutex
	ok := 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			_, full, err := s.TakeAll(e.ctx, today, []quota.Draw{a, b})
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
	ua, errA := s.Used(e.ctx, "a", today)
	ub, errB := s.Used(e.ctx, "b", today)
	if ok != 5 || ua != 5 || ub != 5 || errA != nil || errB != nil {
		t.Errorf("%d draws succeeded, a used %d, b used %d (%v, %v); want 5, 5, 5", ok, ua, ub, errA, errB)
	}
}
