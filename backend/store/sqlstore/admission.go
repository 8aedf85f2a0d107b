package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

// Admission returns the requests' admission ([quota.Admission]): the
// engine's own where it has one that takes the tokens and reads the pools
// in one round trip (PostgreSQL), else the engine's buckets and then one
// read of the pools.
func (db *DB) Admission() quota.Admission {
	if a, ok := db.eng.(quota.Admission); ok {
		return a
	}
	return admission{db}
}

type admission struct{ db *DB }

// Admit takes the tokens, then reads the pools' counts for day in one
// statement. A refused request reads nothing.
func (a admission) Admit(ctx context.Context, now time.Time, bs []quota.Bucket, day time.Time, pools []string) ([]time.Duration, []int, error) {
	waits, err := a.db.eng.Buckets().Take(ctx, now, bs)
	if err != nil {
		return nil, nil, err
	}
	used := make([]int, len(pools))
	for _, w := range waits {
		if w > 0 || len(pools) == 0 {
			return waits, used, nil
		}
	}
	args, marks := []any{a.db.d.Day(day)}, make([]string, len(pools))
	for i, p := range pools {
		args, marks[i] = append(args, p), fmt.Sprintf("$%d", i+2)
	}
	type count struct {
		pool string
		used int
	}
	counts, err := collect(ctx, a.db.read, func(r scanner) (count, error) {
		var c count
		if err := r.Scan(&c.pool, &c.used); err != nil {
			return c, fmt.Errorf("store: pool counts: %w", err)
		}
		return c, nil
	}, `SELECT pool, used FROM daily_usage WHERE day = $1 AND pool IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range counts {
		for i, p := range pools {
			if p == c.pool {
				used[i] = c.used
			}
		}
	}
	return waits, used, nil
}
