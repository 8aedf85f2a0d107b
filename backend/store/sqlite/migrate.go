package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"time"
)

// migrationFS holds the numbered migrations. It is read-only.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// migrate applies, in name order, each migration not yet recorded in
// schema_migrations, each in its own write transaction. Migrations only
// go forward; a shipped file is never edited. Two processes opening the
// same file at once are safe: the transaction re-reads the record under
// the write lock.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name       TEXT PRIMARY KEY,
		applied_at TEXT NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := db.applyMigration(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, name string) error {
	body, err := fs.ReadFile(migrationFS, name)
	if err != nil {
		return fmt.Errorf("sqlite: read migration %s: %w", name, err)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE name = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", name, err)
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(name, applied_at) VALUES(?, ?)`,
			name, db.clock().Format(time.RFC3339)); err != nil {
			return fmt.Errorf("sqlite: record migration %s: %w", name, err)
		}
		return nil
	})
}

// inTx runs fn in a write transaction, committing if it returns nil. A
// busy database, at BEGIN (where an IMMEDIATE transaction takes the write
// lock) or later, is [apperr.Unavailable].
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return db.unavailable(err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", db.unavailable(err))
	}
	return nil
}
