package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SQL of the statements every API request runs.
const (
	// sqlKeyByPrefix reads a key, its hash and its account: the keyColumns,
	// hash, then the accountColumns.
	sqlKeyByPrefix = `SELECT k.id, k.account_id, k.name, k.prefix, k.scopes, k.created_at, k.expires_at, k.revoked_at,
		k.last_used_at, k.hash, a.id, a.email, a.tier, a.features, a.api_disabled, a.daily_cap, a.created_at, a.storage_quota
		FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.prefix = $1`
	sqlAccountByID = `SELECT ` + accountColumns + ` FROM accounts WHERE id = $1`
	sqlUsed        = `SELECT used FROM daily_usage WHERE pool = $1 AND day = $2`
	// sqlTake adds one to a pool's count if it is below the cap, in one
	// statement that is exact across nodes too: a concurrent insert of
	// the same row waits for the other and then updates it, and the
	// update's WHERE is checked again on the row as the other left it. A
	// full row is left untouched and RETURNING yields no row.
	sqlTake = `INSERT INTO daily_usage(pool, day, used) VALUES($1, $2, 1)
		ON CONFLICT(pool, day) DO UPDATE SET used = daily_usage.used + 1 WHERE daily_usage.used < $3
		RETURNING used`
)

// prepared holds the statements every API request runs (authentication,
// the daily pool), prepared once: on SQLite parsing their SQL each time
// was about half of what they cost. Each is safe for concurrent use;
// database/sql prepares it again on each connection of its pool as
// needed.
type prepared struct {
	keyByPrefix, accountByID, used *sql.Stmt // on the read pool
	take                           *sql.Stmt // on the write pool
}

// prepare prepares db's statements, after the migrations have made the
// tables they name.
func (db *DB) prepare(ctx context.Context) error {
	var err error
	stmt := func(pool *sql.DB, query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		if s, err = pool.PrepareContext(ctx, query); err != nil {
			err = db.d.Unavailable(fmt.Errorf("store: prepare: %w", err))
		}
		return s
	}
	db.stmts = prepared{
		keyByPrefix: stmt(db.read.db, sqlKeyByPrefix),
		accountByID: stmt(db.read.db, sqlAccountByID),
		used:        stmt(db.read.db, sqlUsed),
		take:        stmt(db.write.db, sqlTake),
	}
	return err
}

// stmtRow runs a prepared statement that returns a row, classifying its
// error.
func (db *DB) stmtRow(ctx context.Context, s *sql.Stmt, args ...any) row {
	return row{r: s.QueryRowContext(ctx, args...), fail: db.d.Unavailable}
}

// close closes the statements that were prepared.
func (p *prepared) close() error {
	var err error
	for _, s := range []*sql.Stmt{p.keyByPrefix, p.accountByID, p.used, p.take} {
		if s != nil {
			err = errors.Join(err, s.Close())
		}
	}
	return err
}
