package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/captionqa/captionqa/backend/quota"
)

// BucketStore keeps the burst limits' token buckets in the rate_buckets
// table, so that every node of a cluster draws from the same bucket.
type BucketStore struct{ pool *pgxpool.Pool }

var _ quota.Buckets = (*BucketStore)(nil)

// Take implements [quota.Buckets] with the same GCRA as
// [quota.MemoryBuckets], in one call of the take_buckets function (one
// round trip), exact however many nodes take at once. now is the
// caller's, not the store's clock, and is kept to the microsecond (the
// database's precision), not the second, since a bucket may refill
// several times a second; waits are whole microseconds. Rows of buckets
// that have been full for a minute are deleted a few at a time whenever
// a bucket is added. It returns [apperr.Unavailable] when the database
// cannot be reached.
func (s *BucketStore) Take(ctx context.Context, now time.Time, bs []quota.Bucket) ([]time.Duration, error) {
	if len(bs) == 0 {
		return []time.Duration{}, nil
	}
	names := make([]string, len(bs))
	every := make([]int64, len(bs))
	bursts := make([]int32, len(bs))
	for i, b := range bs {
		// The table keeps microseconds: a rate above a million a second
		// counts as a million, never as an interval of zero.
		names[i], every[i], bursts[i] = b.Name, max(b.Every.Microseconds(), 1), int32(b.Burst)
	}
	var micros []int64
	err := s.pool.QueryRow(ctx, `SELECT take_buckets($1, $2, $3, $4)`, names, every, bursts, now.Truncate(time.Microsecond)).Scan(&micros)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: take buckets: %w", err))
	}
	if len(micros) != len(bs) {
		return nil, fmt.Errorf("postgres: take buckets: %d waits for %d buckets", len(micros), len(bs))
	}
	waits := make([]time.Duration, len(bs))
	for i, us := range micros {
		waits[i] = time.Duration(us) * time.Microsecond
	}
	return waits, nil
}
