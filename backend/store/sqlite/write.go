package sqlite

import (
	"context"
	"database/sql"
)

// writer is the write pool (one connection). The store's writes go through
// its ExecContext, BeginTx (so [DB.inTx]) and QueryRowContext, or through
// [writer.row] for a prepared statement, which classify a busy database
// in this one place ([DB.unavailable]): 503 unavailable with a retry hint
// rather than a 500. The embedded pool serves the rest (Close, Conn,
// PrepareContext, PingContext).
type writer struct {
	*sql.DB
	unavailable func(error) error
}

// writer returns w as the write pool of db.
func (db *DB) writer(w *sql.DB) writer { return writer{DB: w, unavailable: db.unavailable} }

// ExecContext runs a write statement.
func (w writer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := w.DB.ExecContext(ctx, query, args...)
	return res, w.unavailable(err)
}

// BeginTx begins a write transaction, IMMEDIATE (see fileDSN): this is
// where a transaction waits for the write lock.
func (w writer) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	tx, err := w.DB.BeginTx(ctx, opts)
	return tx, w.unavailable(err)
}

// QueryRowContext runs a write statement that returns a row (RETURNING).
func (w writer) QueryRowContext(ctx context.Context, query string, args ...any) writeRow {
	return w.row(w.DB.QueryRowContext(ctx, query, args...))
}

// row wraps the row of a prepared write statement, so that its Scan
// classifies a busy database.
func (w writer) row(r *sql.Row) writeRow { return writeRow{r: r, unavailable: w.unavailable} }

// writeRow is the row of a write statement; its error, deferred to Scan
// as with [sql.Row], is classified.
type writeRow struct {
	r           *sql.Row
	unavailable func(error) error
}

// Scan copies the row's columns into dest; see [sql.Row.Scan].
func (r writeRow) Scan(dest ...any) error { return r.unavailable(r.r.Scan(dest...)) }

// Err returns the row's error without scanning; see [sql.Row.Err].
func (r writeRow) Err() error { return r.unavailable(r.r.Err()) }
