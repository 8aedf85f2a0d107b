package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/quota"
)

// QuotaStore keeps the daily run counts, one row per pool and UTC day.
// Every method may return [apperr.Unavailable] (details.retryAfterSeconds)
// when the database cannot be reached.
type QuotaStore struct{ db *DB }

var _ quota.Store = (*QuotaStore)(nil)

// Quotas returns the daily counts' store.
func (db *DB) Quotas() *QuotaStore { return &QuotaStore{db: db} }

// sqlTake adds one to a pool's count if it is below the cap, in one
// statement that is exact across nodes: a concurrent insert of the same
// row waits for the other and then updates it, and the update's WHERE is
// checked again on the row as the other left it. A full row is left
// untouched and RETURNING yields no row.
const sqlTake = `INSERT INTO daily_usage(pool, day, used) VALUES($1, $2, 1)
	ON CONFLICT (pool, day) DO UPDATE SET used = daily_usage.used + 1 WHERE daily_usage.used < $3
	RETURNING used`

// Take adds one to pool's count for day if it is below cap, in one
// statement (sqlTake). cap must be at least 1.
func (s *QuotaStore) Take(ctx context.Context, pool string, day time.Time, cap int) (int, bool, error) {
	used, ok, err := take(ctx, s.db.pool, pool, day, cap)
	return used, ok, unavailable(err)
}

// take is Take through q, which may be a transaction writing other rows
// with the count (an export and the run it takes).
func take(ctx context.Context, q querier, pool string, d time.Time, cap int) (used int, ok bool, err error) {
	err = q.QueryRow(ctx, sqlTake, pool, dateOf(d), cap).Scan(&used)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("postgres: take %s: %w", pool, err)
	}
	return used, true, nil
}

// Used returns pool's count for day, zero if there is none.
func (s *QuotaStore) Used(ctx context.Context, pool string, d time.Time) (int, error) {
	var used int
	err := s.db.pool.QueryRow(ctx, `SELECT used FROM daily_usage WHERE pool = $1 AND day = $2`, pool, dateOf(d)).Scan(&used)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, unavailable(fmt.Errorf("postgres: usage %s: %w", pool, err))
	}
	return used, nil
}

// TakeAll adds one to every pool of draws for day in one transaction, or
// to none when one is at its cap.
func (s *QuotaStore) TakeAll(ctx context.Context, d time.Time, draws []quota.Draw) ([]int, int, error) {
	var used []int
	full := -1
	errFull := errors.New("full") // rolls the transaction back
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		used, full, err = takeAll(ctx, tx, d, draws)
		if err == nil && full >= 0 {
			return errFull
		}
		return err
	})
	if full >= 0 {
		return nil, full, nil
	}
	if err != nil {
		return nil, -1, err
	}
	return used, -1, nil
}

// takeAll takes from each pool of draws through q (a transaction), in
// the order of the pools' names so that two transactions drawing on the
// same pools never each hold a row the other waits for. It tries every
// draw and reports as full the first in draws' order that is at its cap,
// as taking them in that order and stopping there would. When full >= 0
// the other draws have been counted in q: the caller rolls it back.
func takeAll(ctx context.Context, q querier, d time.Time, draws []quota.Draw) (used []int, full int, err error) {
	order := make([]int, len(draws))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(draws[a].Pool, draws[b].Pool) })
	used, full = make([]int, len(draws)), -1
	for _, i := range order {
		n, ok, err := take(ctx, q, draws[i].Pool, d, draws[i].Cap)
		if err != nil {
			return nil, -1, err
		}
		if !ok && (full < 0 || i < full) {
			full = i
		}
		used[i] = n
	}
	if full >= 0 {
		return nil, full, nil
	}
	return used, -1, nil
}
