package quota

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Admission is a request's admission: it takes the request's burst
// tokens and reads the day's counts of the pools the request may draw
// on, in one round trip where the store can (PostgreSQL) rather than one
// for the buckets and one for each pool. A store's admission is given in
// [Options.Admission]; without one, the service takes from
// [Options.Buckets] and reads each pool from its [Store].
type Admission interface {
	// Admit takes one token from each of bs at now, or from none when
	// one is empty (waits as [Buckets.Take]), and returns the count of
	// each of pools for day (0 for a pool with none), read as the tokens
	// were taken.
	Admit(ctx context.Context, now time.Time, bs []Bucket, day time.Time, pools []string) (waits []time.Duration, used []int, err error)
}

// storeAdmission is the admission of a service without one: the buckets,
// then a read of each pool.
type storeAdmission struct {
	buckets Buckets
	store   Store
}

func (a storeAdmission) Admit(ctx context.Context, now time.Time, bs []Bucket, day time.Time, pools []string) ([]time.Duration, []int, error) {
	waits, err := a.buckets.Take(ctx, now, bs)
	if err != nil {
		return nil, nil, err
	}
	used := make([]int, len(pools))
	for i, p := range pools {
		if used[i], err = a.store.Used(ctx, p, day); err != nil {
			return nil, nil, fmt.Errorf("quota: usage %s: %w", p, err)
		}
	}
	return waits, used, nil
}

// admitted is the day's standing of pools that a request's admission read
// ([Service.AdmitKey]), carried by the request's context. The first
// Check or Usage of a pool in the request is answered from it, without a
// read; later ones, and any after a Take of the pool, read the store, so
// that nothing the request itself counted is answered from before.
type admitted struct {
	mu   sync.Mutex
	day  time.Time
	used map[string]int
}

type admittedKey struct{}

// withAdmitted returns ctx carrying the counts of pools for day.
func withAdmitted(ctx context.Context, day time.Time, pools []string, used []int) context.Context {
	a := &admitted{day: day, used: make(map[string]int, len(pools))}
	for i, p := range pools {
		a.used[p] = used[i]
	}
	return context.WithValue(ctx, admittedKey{}, a)
}

// takeAdmitted returns, and forgets, the count of pool for day that ctx's
// admission read, or ok false.
func takeAdmitted(ctx context.Context, pool string, day time.Time) (used int, ok bool) {
	a, _ := ctx.Value(admittedKey{}).(*admitted)
	if a == nil {
		return 0, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	used, ok = a.used[pool]
	delete(a.used, pool)
	return used, ok && a.day.Equal(day)
}

// forgetAdmitted forgets what ctx's admission read of pools (a Take
// changed them).
func forgetAdmitted(ctx context.Context, pools ...string) {
	a, _ := ctx.Value(admittedKey{}).(*admitted)
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range pools {
		delete(a.used, p)
	}
}
