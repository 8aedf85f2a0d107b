package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SQL of the statements every API request runs.
const (
	sqlKeyByPrefix = `SELECT ` + keyColumns + `, hash FROM api_keys WHERE prefix = ?`
	sqlAccountByID = `SELECT ` + accountColumns + ` FROM accounts WHERE id = ?`
	sqlUsed        = `SELECT used FROM daily_usage WHERE pool = ? AND day = ?`
	// sqlTake adds one to a pool's count if it is below the cap, in one
	// statement: the upsert's WHERE leaves a full row untouched and then
	// RETURNING yields no row.
	sqlTake = `INSERT INTO daily_usage(pool, day, used) VALUES(?, ?, 1)
		ON CONFLICT(pool, day) DO UPDATE SET used = used + 1 WHERE used < ?
		RETURNING used`
)

// prepared holds the statements every API request runs (authentication,
// the daily pool), prepared once: parsing their SQL each time was about
// half of what they cost. Each is safe for concurrent use; database/sql
// prepares it again on each connection of its pool as needed.
type prepared struct {
	keyByPrefix, accountByID, used *sql.Stmt // on the read pool
	take                           *sql.Stmt // on the write pool: run it through writer.row
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
			err = fmt.Errorf("sqlite: prepare: %w", err)
		}
		return s
	}
	db.stmts = prepared{
		keyByPrefix: stmt(db.read, sqlKeyByPrefix),
		accountByID: stmt(db.read, sqlAccountByID),
		used:        stmt(db.read, sqlUsed),
		take:        stmt(db.write.DB, sqlTake),
	}
	return err
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
