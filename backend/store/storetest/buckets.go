package storetest

import (
	"slices"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

func bucketScenarios() []scenario {
	return []scenario{
		{"burst refill", bucketBurst},
		{"all or none", bucketAllOrNone},
		{"concurrently", bucketConcurrently},
		{"very fast refill", bucketFast},
		{"admission", bucketAdmission},
	}
}

// bucketAdmission: the store's admission takes tokens as its buckets do
// and reads each pool's count for the day, 0 for a pool with none, in the
// order asked; a refused admission takes nothing.
func bucketAdmission(e *env) {
	t, a := e.t, e.db.Admission()
	day := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	for range 2 {
		_, _, err := e.db.Quotas().Take(e.ctx, "account:"+uuidN(1), day, 9)
		must(t, err)
	}
	_, _, err := e.db.Quotas().Take(e.ctx, "account:"+uuidN(1), day.AddDate(0, 0, -1), 9)
	must(t, err)
	b := quota.Bucket{Name: "key:" + uuidN(3), Every: time.Hour, Burst: 1}
	pools := []string{"explain:" + uuidN(1), "account:" + uuidN(1)}
	waits, used, err := a.Admit(e.ctx, e.now(), []quota.Bucket{b}, day, pools)
	must(t, err)
	if len(waits) != 1 || waits[0] != 0 || !slices.Equal(used, []int{0, 2}) {
		t.Fatalf("Admit = waits %v, used %v; want [0], [0 2]", waits, used)
	}
	waits, _, err = a.Admit(e.ctx, e.now(), []quota.Bucket{b}, day, pools)
	must(t, err)
	if waits[0] <= 0 {
		t.Fatalf("second Admit of a burst of 1: waits %v; want refused", waits)
	}
}

// bucketFast: a rate above a million a second (the tests' "no limit")
// still gives its burst and no more at one instant, never an empty or
// bottomless bucket.
func bucketFast(e *env) {
	t, s := e.t, e.db.Buckets()
	b := quota.Bucket{Name: "account:" + uuidN(1), Every: 500 * time.Nanosecond, Burst: 3}
	now := e.now()
	for i := range 4 {
		waits, err := s.Take(e.ctx, now, []quota.Bucket{b})
		must(t, err)
		if refused := waits[0] > 0; refused != (i == 3) || waits[0] > time.Microsecond {
			t.Fatalf("take %d: wait %v; want the first 3 taken, the 4th refused for at most 1µs", i+1, waits[0])
		}
	}
}

// bucketBurst: a bucket never seen is full; its burst is taken, then
// refused with the wait until the next token; time passing (the now
// argument) refills it, one token per Every, up to Burst.
func bucketBurst(e *env) {
	t, s := e.t, e.db.Buckets()
	b := quota.Bucket{Name: "key:" + uuidN(1), Every: 2 * time.Second, Burst: 3}
	other := quota.Bucket{Name: "key:" + uuidN(2), Every: 2 * time.Second, Burst: 3}
	now := e.now()
	steps := []struct {
		name string
		at   time.Duration // after now
		b    quota.Bucket
		want time.Duration
	}{
		{"first", 0, b, 0},
		{"second", 0, b, 0},
		{"third", 0, b, 0},
		{"fourth: empty", 0, b, 2 * time.Second},
		{"another bucket is full", 0, other, 0},
		{"one second on: still empty", time.Second, b, time.Second},
		{"two seconds on: one token", 2 * time.Second, b, 0},
		{"then empty again", 2 * time.Second, b, 2 * time.Second},
		{"an hour on: a full burst", time.Hour, b, 0},
		{"second of the new burst", time.Hour, b, 0},
		{"third of the new burst", time.Hour, b, 0},
		{"never more than Burst", time.Hour, b, 2 * time.Second},
	}
	for _, st := range steps {
		waits, err := s.Take(e.ctx, now.Add(st.at), []quota.Bucket{st.b})
		must(t, err)
		if len(waits) != 1 || waits[0] != st.want {
			t.Fatalf("%s: waits %v; want [%v]", st.name, waits, st.want)
		}
	}
}

// bucketAllOrNone: a take refused by one bucket takes from none.
func bucketAllOrNone(e *env) {
	t, s := e.t, e.db.Buckets()
	key := quota.Bucket{Name: "key:" + uuidN(1), Every: time.Second, Burst: 1}
	acct := quota.Bucket{Name: "account:" + uuidN(1), Every: time.Second, Burst: 2}
	now := e.now()
	steps := []struct {
		name string
		bs   []quota.Bucket
		want []time.Duration
	}{
		{"both have tokens", []quota.Bucket{key, acct}, []time.Duration{0, 0}},
		{"key empty: account untouched", []quota.Bucket{key, acct}, []time.Duration{time.Second, 0}},
		{"so the account has one left", []quota.Bucket{acct}, []time.Duration{0}},
		{"now both are empty", []quota.Bucket{key, acct}, []time.Duration{time.Second, time.Second}},
	}
	for _, st := range steps {
		waits, err := s.Take(e.ctx, now, st.bs)
		must(t, err)
		if !slices.Equal(waits, st.want) {
			t.Fatalf("%s: waits %v; want %v", st.name, waits, st.want)
		}
	}
}

// bucketConcurrently: of 20 callers at one instant on a burst of 5,
// exactly 5 get a token.
func bucketConcurrently(e *env) {
	t, s := e.t, e.db.Buckets()
	b := quota.Bucket{Name: "export", Every: time.Minute, Burst: 5}
	now := e.now()
	var mu sync.Mutex
	taken := 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			waits, err := s.Take(e.ctx, now, []quota.Bucket{b})
			if err != nil {
				t.Error(err)
				return
			}
			if len(waits) == 1 && waits[0] == 0 {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if taken != 5 {
		t.Errorf("%d callers got a token; want 5", taken)
	}
}
