package quota_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/quota"
)

// countingStore counts the reads of pools that reach the store.
type countingStore struct {
	quota.Store
	reads atomic.Int64
}

func (c *countingStore) Used(ctx context.Context, pool string, day time.Time) (int, error) {
	c.reads.Add(1)
	return c.Store.Used(ctx, pool, day)
}

// TestAdmissionAnswersFirstReads: the counts AdmitKey reads answer the
// request's first Check or Usage of each pool without another read;
// a second one, one after a Take of the pool, and one on another day
// read the store.
func TestAdmissionAnswersFirstReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	db := testkit.MustOpenDB(t)
	store := &countingStore{Store: db.Quotas()}
	svc := quota.NewService(store, quota.Options{Now: clock.Now, Admission: db.Admission()})
	for range 2 {
		if _, err := svc.Take(ctx, "account:a", 9); err != nil {
			t.Fatal(err)
		}
	}
	reads := func(want int64, step string) {
		t.Helper()
		if got := store.reads.Swap(0); got != want {
			t.Errorf("%s: %d reads of the store, want %d", step, got, want)
		}
	}
	req, err := svc.AdmitKey(ctx, "a", "k", "account:a", "explain:a")
	if err != nil {
		t.Fatal(err)
	}
	reads(0, "admission (the store's own)")
	if err := svc.Check(req, "account:a", 2); apperr.KindOf(err) != apperr.QuotaExceeded {
		t.Errorf("Check of a pool admitted full = %v, want quota_exceeded", err)
	}
	reads(0, "first Check")
	if u, err := svc.Usage(req, "account:a", 9); err != nil || u.Used != 2 {
		t.Errorf("second Usage = %+v, %v; want 2 used", u, err)
	}
	reads(1, "second Usage")
	if _, err := svc.Take(req, "explain:a", 9); err != nil {
		t.Fatal(err)
	}
	if u, err := svc.Usage(req, "explain:a", 9); err != nil || u.Used != 1 {
		t.Errorf("Usage after a Take = %+v, %v; want 1 used (the store's, not the admission's 0)", u, err)
	}
	reads(1, "Usage after a Take")

	next, err := svc.AdmitKey(ctx, "a", "k", "account:a")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(24 * time.Hour)
	if u, err := svc.Usage(next, "account:a", 9); err != nil || u.Used != 0 {
		t.Errorf("Usage on the next day = %+v, %v; want 0 used", u, err)
	}
	reads(1, "Usage on another day")
}

// TestAdmissionWithoutStore: a service without a store's admission
// takes from its buckets and reads each pool from its store.
func TestAdmissionWithoutStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	store := &countingStore{Store: testkit.MustOpenDB(t).Quotas()}
	svc := quota.NewService(store, quota.Options{Now: clock.Now, BurstPerSecond: 1, Burst: 1})
	req, err := svc.AdmitKey(ctx, "a", "k", "account:a", "explain:a")
	if err != nil {
		t.Fatal(err)
	}
	if n := store.reads.Load(); n != 2 {
		t.Errorf("admission read the store %d times, want once a pool", n)
	}
	if err := svc.Check(req, "account:a", 1); err != nil || store.reads.Load() != 2 {
		t.Errorf("Check = %v after %d reads; want nil, answered by the admission", err, store.reads.Load())
	}
	if _, err := svc.AdmitKey(ctx, "a", "k"); apperr.KindOf(err) != apperr.RateLimited {
		t.Errorf("second admission within the burst = %v, want rate_limited", err)
	}
}
