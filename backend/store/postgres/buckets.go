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
	waits, _, err := s.Admit(ctx, now, bs, now, nil)
	return waits, err
}

// Admit is [BucketStore.Take] that also reads the counts of pools for
// day, in the same statement: one round trip admits a request
// ([quota.Admission]). The counts are read in the statement's snapshot.
func (s *BucketStore) Admit(ctx context.Context, now time.Time, bs []quota.Bucket, day time.Time, pools []string) ([]time.Duration, []int, error) {
	names := make([]string, len(bs))
	every := make([]int64, len(bs))
	bursts := make([]int32, len(bs))
	for i, b := range bs {
		// The table keeps microseconds: a rate above a million a second
		// counts as a million, never as an interval of zero.
		names[i], every[i], bursts[i] = b.Name, max(b.Every.Microseconds(), 1), int32(b.Burst)
	}
	if pools == nil {
		pools = []string{}
	}
	var micros, counts []int64
	err := s.pool.QueryRow(ctx, `SELECT take_buckets($1, $2, $3, $4),
		ARRAY(SELECT coalesce(d.used, 0)::bigint FROM unnest($6::text[]) WITH ORDINALITY AS p(pool, o)
			LEFT JOIN daily_usage d ON d.pool = p.pool AND d.day = $5 ORDER BY p.o)`,
		names, every, bursts, now.Truncate(time.Microsecond), day.UTC(), pools).Scan(&micros, &counts)
	if err != nil {
		return nil, nil, unavailable(fmt.Errorf("postgres: admit: %w", err))
	}
	if len(micros) != len(bs) || len(counts) != len(pools) {
		return nil, nil, fmt.Errorf("postgres: admit: %d waits for %d buckets, %d counts for %d pools", len(micros), len(bs), len(counts), len(pools))
	}
	waits := make([]time.Duration, len(bs))
	for i, us := range micros {
		waits[i] = time.Duration(us) * time.Microsecond
	}
	used := make([]int, len(pools))
	for i, n := range counts {
		used[i] = int(n)
	}
	return waits, used, nil
}
