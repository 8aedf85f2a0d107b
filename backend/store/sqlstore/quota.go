package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

// QuotaStore keeps the daily run counts, one row per pool and UTC day.
// Every method may return [apperr.Unavailable] (details.retryAfterSeconds)
// when the database is busy or cannot be reached.
type QuotaStore struct{ db *DB }

var _ quota.Store = (*QuotaStore)(nil)

// Quotas returns the daily counts' store.
func (db *DB) Quotas() *QuotaStore { return &QuotaStore{db: db} }

// Take adds one to pool's count for day if it is below cap, in one
// statement (sqlTake). cap must be at least 1.
func (s *QuotaStore) Take(ctx context.Context, pool string, day time.Time, cap int) (int, bool, error) {
	return s.db.takeRow(s.db.stmtRow(ctx, s.db.stmts.take, pool, s.db.d.Day(day), cap), pool)
}

// take is Take in a transaction that writes other rows with the count
// (an export and the run it takes). The count's row stays locked until
// the transaction ends.
func (t *Tx) take(ctx context.Context, pool string, day time.Time, cap int) (int, bool, error) {
	return t.db.takeRow(t.queryRow(ctx, sqlTake, pool, t.db.d.Day(day), cap), pool)
}

func (db *DB) takeRow(r row, pool string) (used int, ok bool, err error) {
	err = r.Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: take %s: %w", pool, err)
	}
	return used, true, nil
}

// Used returns pool's count for day, zero if there is none.
func (s *QuotaStore) Used(ctx context.Context, pool string, day time.Time) (int, error) {
	var used int
	err := s.db.stmtRow(ctx, s.db.stmts.used, pool, s.db.d.Day(day)).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: usage %s: %w", pool, err)
	}
	return used, nil
}

// TakeAll adds one to every pool of draws for day in one transaction, or
// to none when one is at its cap. It takes the pools in the order of
// their names, so that two transactions drawing on the same pools never
// each hold a row the other waits for, and reports as full the first in
// draws' order that is at its cap, as taking them in that order and
// stopping there would.
func (s *QuotaStore) TakeAll(ctx context.Context, day time.Time, draws []quota.Draw) ([]int, int, error) {
	order := make([]int, len(draws))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(draws[a].Pool, draws[b].Pool) })
	used, full := make([]int, len(draws)), -1
	errFull := errors.New("full") // rolls the transaction back
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		for _, i := range order {
			n, ok, err := tx.take(ctx, draws[i].Pool, day, draws[i].Cap)
			if err != nil {
				return err
			}
			if !ok && (full < 0 || i < full) {
				full = i
			}
			used[i] = n
		}
		if full >= 0 {
			return errFull
		}
		return nil
	})
	switch {
	case errors.Is(err, errFull):
		return nil, full, nil
	case err != nil:
		return nil, -1, err
	}
	return used, -1, nil
}
