package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

// TestBucketsMatchMemory runs one random script of takes on the table's
// buckets and on the memory ones: every wait must be the same.
func TestBucketsMatchMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, e := openTest(t, nil)
	db, mem := e.Buckets(), quota.NewMemoryBuckets()
	kinds := []quota.Bucket{
		{Name: "key:1", Every: 200 * time.Millisecond, Burst: 3},
		{Name: "key:2", Every: 200 * time.Millisecond, Burst: 3},
		{Name: "account:1", Every: 100 * time.Millisecond, Burst: 6},
		{Name: "slow", Every: 4 * time.Second, Burst: 2},
		{Name: "single", Every: 333 * time.Millisecond, Burst: 1},
	}
	advances := []time.Duration{0, 0, 0, time.Microsecond, 50 * time.Millisecond, 137 * time.Millisecond,
		time.Second, 3 * time.Second, 2 * time.Minute}
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Date(2026, 1, 1, 0, 0, 0, 123456000, time.UTC)
	taken, refused := 0, 0
	for step := range 400 {
		now = now.Add(advances[rng.IntN(len(advances))])
		bs := slices.Clone(kinds)
		rng.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		bs = bs[:1+rng.IntN(3)]
		want, _ := mem.Take(ctx, now, bs)
		got, err := db.Take(ctx, now, bs)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d at %v, buckets %v: waits %v, want %v (memory)", step, now, bs, got, want)
		}
		if slices.ContainsFunc(got, func(d time.Duration) bool { return d > 0 }) {
			refused++
		} else {
			taken++
		}
	}
	if taken < 50 || refused < 50 {
		t.Errorf("script took %d and refused %d: want a good share of each", taken, refused)
	}
	if got, err := db.Take(ctx, now, nil); err != nil || len(got) != 0 {
		t.Errorf("no buckets: %v, %v; want no waits", got, err)
	}
}

// TestBucketsNodes: takes from many goroutines on several nodes at one
// instant never take more than a burst, and takes naming the same
// buckets in opposite orders do not deadlock.
func TestBucketsNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	small := quota.Bucket{Name: "small", Every: time.Hour, Burst: 5}
	large := quota.Bucket{Name: "large", Every: time.Second, Burst: 100}
	var ok atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 48 {
		bs := []quota.Bucket{small, large}
		if i%2 == 1 {
			bs = []quota.Bucket{large, small}
		}
		s := nodes[i%len(nodes)].Buckets()
		wg.Go(func() {
			<-start
			waits, err := s.Take(ctx, now, bs)
			if err != nil {
				t.Error(err)
				return
			}
			if !slices.ContainsFunc(waits, func(d time.Duration) bool { return d > 0 }) {
				ok.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	if ok.Load() != 5 {
		t.Errorf("%d takes succeeded, want 5 (small's burst)", ok.Load())
	}
	// large gave a token to those 5 only: 95 left at the same instant.
	for i := range 96 {
		waits, err := nodes[i%len(nodes)].Buckets().Take(ctx, now, []quota.Bucket{large})
		if err != nil {
			t.Fatal(err)
		}
		if want := i == 95; (waits[0] > 0) != want {
			t.Fatalf("take %d from large: wait %v; want refused %v", i, waits[0], want)
		}
	}
}

// TestBucketsPrune: adding a bucket deletes a few rows full for over a
// minute, and a deleted bucket starts full, as if never seen.
func TestBucketsPrune(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, e := openTest(t, nil)
	s := e.Buckets()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	bucket := func(name string) []quota.Bucket {
		return []quota.Bucket{{Name: name, Every: time.Second, Burst: 1}}
	}
	take := func(name string, at time.Time) time.Duration {
		t.Helper()
		waits, err := s.Take(ctx, at, bucket(name))
		if err != nil {
			t.Fatal(err)
		}
		return waits[0]
	}
	rows := func() int {
		t.Helper()
		var n int
		if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM rate_buckets`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 20 {
		take(fmt.Sprint("idle-", i), now)
	}
	take("busy", now.Add(59*time.Second))
	if got := rows(); got != 21 {
		t.Fatalf("rows = %d, want 21", got)
	}
	later := now.Add(61*time.Second + time.Millisecond)
	take("idle-0", later) // known bucket: no pruning
	if got := rows(); got != 21 {
		t.Errorf("rows after taking from a known bucket = %d, want 21", got)
	}
	take("new", later) // a new bucket: up to 8 idle rows go
	if got := rows(); got != 21+1-8 {
		t.Errorf("rows after adding a bucket = %d, want %d", got, 21+1-8)
	}
	var busy int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM rate_buckets WHERE name IN ('busy', 'idle-0', 'new')`).Scan(&busy); err != nil || busy != 3 {
		t.Errorf("buckets used within the minute kept: %d, %v; want 3", busy, err)
	}
	for i := range 20 {
		if w := take(fmt.Sprint("idle-", i), later.Add(time.Second)); w != 0 {
			t.Errorf("idle-%d: wait %v, want a full bucket", i, w)
		}
	}
}
