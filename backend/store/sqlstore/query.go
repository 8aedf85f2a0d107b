package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
)

// querier runs statements on a pool ([handle]) or in a transaction
// ([Tx]); either classifies the errors it returns ([Dialect.Unavailable]),
// so that a store method's error is classified whichever ran it.
type querier interface {
	exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	queryRow(ctx context.Context, query string, args ...any) row
	classify(err error) error
}

// handle is a pool whose errors are classified.
type handle struct {
	db   *sql.DB
	fail func(error) error
}

func (h handle) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := h.db.ExecContext(ctx, query, args...)
	return res, h.fail(err)
}

func (h handle) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := h.db.QueryContext(ctx, query, args...)
	return rows, h.fail(err)
}

func (h handle) queryRow(ctx context.Context, query string, args ...any) row {
	return row{r: h.db.QueryRowContext(ctx, query, args...), fail: h.fail}
}

func (h handle) classify(err error) error { return h.fail(err) }

// row is a row whose error, deferred to Scan as with [sql.Row], is
// classified.
type row struct {
	r    *sql.Row
	fail func(error) error
}

// Scan copies the row's columns into dest; see [sql.Row.Scan].
func (r row) Scan(dest ...any) error { return r.fail(r.r.Scan(dest...)) }

// scanner is a row to scan: [row], [*sql.Row] or [*sql.Rows].
type scanner interface{ Scan(dest ...any) error }

// collect runs query through q and scans each row with scan, returning
// an empty, non-nil slice for no rows.
func collect[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, q.classify(fmt.Errorf("store: rows: %w", err))
	}
	return list, nil
}

// affected returns how many rows res changed.
func affected(res sql.Result) (int64, error) {
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: rows affected: %w", err)
	}
	return n, nil
}

// changeOne runs a write that must change a row: none changed is
// [apperr.NotFound] ("<what> not found").
func changeOne(ctx context.Context, q querier, what, query string, args ...any) error {
	res, err := q.exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	n, err := affected(res)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.New(apperr.NotFound, "%s not found", what)
	}
	return nil
}
