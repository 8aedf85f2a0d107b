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
type QuotaStore struct{ db *DB }

var _ quota.Store = (*QuotaStore)(nil)

// Reserve adds one to pool's count for day if it is below cap, in one
// statement (sqlReserve). cap must be at least 1.
func (s *QuotaStore) Reserve(ctx context.Context, pool string, day time.Time, cap int) (int, bool, error) {
	var used int
	err := s.db.stmts.reserve.QueryRowContext(ctx, pool, formatDay(day), cap).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: reserve %s: %w", pool, err)
	}
	return used, true, nil
}

// Release takes one off pool's count for day, never below zero.
func (s *QuotaStore) Release(ctx context.Context, pool string, day time.Time) error {
	_, err := s.db.write.ExecContext(ctx, `UPDATE daily_usage SET used = used - 1 WHERE pool = ? AND day = ? AND used > 0`,
		pool, formatDay(day))
	if err != nil {
		return fmt.Errorf("sqlite: release %s: %w", pool, err)
	}
	return nil
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
