package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/quota"
)

// QuotaStore keeps the daily run counts, one row per pool and UTC day.
// [QuotaStore.Take] returns [apperr.Unavailable] (details.retryAfterSeconds)
// if another process holds the write lock past the busy timeout.
type QuotaStore struct{ db *DB }

var _ quota.Store = (*QuotaStore)(nil)

// Take adds one to pool's count for day if it is below cap, in one
// statement (sqlTake). cap must be at least 1.
func (s *QuotaStore) Take(ctx context.Context, pool string, day time.Time, cap int) (int, bool, error) {
	var used int
	err := s.db.write.row(s.db.stmts.take.QueryRowContext(ctx, pool, formatDay(day), cap)).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: take %s: %w", pool, err)
	}
	return used, true, nil
}

// Used returns pool's count for day, zero if there is none.
func (s *QuotaStore) Used(ctx context.Context, pool string, day time.Time) (int, error) {
	var used int
	err := s.db.stmts.used.QueryRowContext(ctx, pool, formatDay(day)).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: usage %s: %w", pool, err)
	}
	return used, nil
}

// TakeAll adds one to every pool of draws for day in one write
// transaction, or to none when one is at its cap.
func (s *QuotaStore) TakeAll(ctx context.Context, day time.Time, draws []quota.Draw) ([]int, int, error) {
	used, full := make([]int, len(draws)), -1
	errFull := errors.New("full")
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		for i, d := range draws {
			err := tx.tx.QueryRowContext(ctx, sqlTake, d.Pool, formatDay(day), d.Cap).Scan(&used[i])
			if errors.Is(err, sql.ErrNoRows) {
				full = i
				return errFull
			}
			if err != nil {
				return fmt.Errorf("sqlite: take %s: %w", d.Pool, err)
			}
		}
		return nil
	})
	if full >= 0 {
		return nil, full, nil
	}
	if err != nil {
		return nil, -1, err
	}
	return used, -1, nil
}
