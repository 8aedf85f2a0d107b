package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// What the engine-matrix tests (package sqlstore_test) reach beyond the
// stores: raw statements to arrange and inspect rows, and the upkeep
// that runs as a periodic job.

// Exec runs a statement on the write pool.
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.write.db.ExecContext(ctx, query, args...)
}

// QueryRow runs a query on the write pool (which sees every commit at
// once).
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.write.db.QueryRowContext(ctx, query, args...)
}

// Ts is the column value of t.
func (db *DB) Ts(t time.Time) any { return db.ts(t) }

// Exec runs a statement in the transaction.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, query, args...)
}

// RescueDeliveries is the delivery rescuer's pass.
func (t *Tx) RescueDeliveries(ctx context.Context, cutoff time.Time) (int, error) {
	return t.rescueDeliveries(ctx, cutoff)
}

// Query runs a query on the write pool.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.write.db.QueryContext(ctx, query, args...)
}

// Warm opens n connections of the read pool at once and returns them to
// it, so that a race the test starts next is not serialised by
// connecting.
func (db *DB) Warm(ctx context.Context, n int) error {
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := db.read.db.Conn(ctx)
		if err != nil {
			return err
		}
		conns = append(conns, c)
	}
	return nil
}
