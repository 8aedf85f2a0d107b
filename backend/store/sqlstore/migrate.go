package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

// Migrations is how an engine's schema is migrated: goose
// (github.com/pressly/goose/v3) applies the numbered SQL files of FS,
// each in its own transaction, and records them in goose_db_version.
// Migrations only go forward; a shipped file is never edited.
type Migrations struct {
	// FS holds the engine's files (NNNN_name.sql, goose-annotated) at
	// its root.
	FS      fs.FS
	Dialect goose.Dialect
	// Locker makes processes that start together take turns.
	Locker lock.SessionLocker
	// Serialize, if set, is run first in the transaction that adopts an
	// earlier runner's record (PostgreSQL's transaction-scoped advisory
	// lock); SQLite's write transaction is exclusive already.
	Serialize string
	// TableExists is a query of one parameter, a table's name, that
	// counts the tables of that name in the store's schema.
	TableExists string
}

// Migrate applies m's pending migrations to db. A database the store's
// earlier runner migrated (a schema_migrations table naming each applied
// file) is first recorded in goose's table as migrated to the same
// files, in one transaction that also drops schema_migrations, so that
// goose applies only what is new.
func Migrate(ctx context.Context, db *sql.DB, m Migrations) error {
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger())}
	if m.Locker != nil {
		opts = append(opts, goose.WithSessionLocker(m.Locker))
	}
	p, err := goose.NewProvider(m.Dialect, db, m.FS, opts...)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if err := adoptLegacy(ctx, db, m); err != nil {
		return fmt.Errorf("store: adopt the earlier migration record: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// adoptLegacy moves the record of schema_migrations, if there is one,
// into goose's table.
func adoptLegacy(ctx context.Context, db *sql.DB, m Migrations) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // after Commit, a no-op
	if m.Serialize != "" {
		if _, err := tx.ExecContext(ctx, m.Serialize); err != nil {
			return err
		}
	}
	exists := func(table string) (bool, error) {
		var n int
		err := tx.QueryRowContext(ctx, m.TableExists, table).Scan(&n)
		return n > 0, err
	}
	legacy, err := exists("schema_migrations")
	if err != nil || !legacy {
		return err
	}
	if done, err := exists(goose.DefaultTablename); err != nil || done {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		return err
	}
	versions := []int64{0} // goose's table starts with version 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		digits, _, _ := strings.Cut(path.Base(name), "_")
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			rows.Close()
			return fmt.Errorf("schema_migrations names %q, not a numbered file", name)
		}
		versions = append(versions, v)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	store, err := database.NewStore(m.Dialect, goose.DefaultTablename)
	if err != nil {
		return err
	}
	if err := store.CreateVersionTable(ctx, tx); err != nil {
		return err
	}
	for _, v := range versions {
		if err := store.Insert(ctx, tx, database.InsertRequest{Version: v}); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE schema_migrations`); err != nil {
		return err
	}
	return tx.Commit()
}
