package quota

import (
	"context"
	"sync"
	"time"
)

// MemoryBuckets keeps token buckets in this process: the single-node
// store's [Buckets]. Each bucket is its theoretical arrival time (GCRA):
// a bucket whose time has passed is full, so an idle one is dropped
// without losing anything.
type MemoryBuckets struct {
	mu        sync.Mutex
	tat       map[string]time.Time
	lastPrune time.Time
}

// NewMemoryBuckets returns empty buckets.
func NewMemoryBuckets() *MemoryBuckets { return &MemoryBuckets{tat: map[string]time.Time{}} }

// pruneEvery is how often idle buckets are dropped (at most once a
// minute, so Take stays O(1) amortised).
const pruneEvery = time.Minute

// Take implements [Buckets]; it never fails.
func (m *MemoryBuckets) Take(_ context.Context, now time.Time, bs []Bucket) ([]time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.lastPrune) >= pruneEvery {
		m.lastPrune = now
		for k, t := range m.tat {
			if !t.After(now) {
				delete(m.tat, k)
			}
		}
	}
	waits := make([]time.Duration, len(bs))
	next := make([]time.Time, len(bs))
	refused := false
	for i, b := range bs {
		next[i], waits[i] = gcra(m.tat[b.Name], now, b)
		refused = refused || waits[i] > 0
	}
	if !refused {
		for i, b := range bs {
			m.tat[b.Name] = next[i]
		}
	}
	return waits, nil
}

// gcra is one step of the generic cell rate algorithm: from the bucket's
// theoretical arrival time tat, the new one if a token is taken at now,
// and the wait until one could be (zero: it can now). A bucket of Burst
// tokens refilled at one per Every allows a request while
// tat+Every-now <= Burst*Every.
func gcra(tat, now time.Time, b Bucket) (next time.Time, wait time.Duration) {
	if tat.Before(now) {
		tat = now
	}
	next = tat.Add(b.Every)
	if allowAt := next.Add(-time.Duration(b.Burst) * b.Every); allowAt.After(now) {
		return tat, allowAt.Sub(now)
	}
	return next, 0
}
