// Package sqlstore is CaptionQA's store on database/sql, written once for
// both engines: SQLite (package sqlite: one file, the embedded default)
// and PostgreSQL (package postgres: one database several nodes share). It
// implements the Store interfaces the domain packages declare and
// [store.DB]. Every query is written once, in SQL both engines read: $n
// placeholders (SQLite takes them as numbered parameters), true and
// false, ON CONFLICT, RETURNING and row values. What really differs is a
// [Dialect] (how times and lists are stored, row locks, the error
// classifier, the few statements on River's tables) and an [Engine] the
// engine package supplies: readiness, the burst limits' buckets, the
// shared secret and River's driver. docs/architecture.md tells the layers.
//
// Times are stored in whole seconds from the injected clock
// ([Config.Now]), never the database's now(), so tests with a fake clock
// behave on both engines alike.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/quota"
)

// Engine is what only the engine package can do.
type Engine interface {
	// Ready reports whether the database can take a write now, or
	// [apperr.Unavailable].
	Ready(ctx context.Context) error
	// Buckets keeps the burst limits' token buckets: in process memory
	// on SQLite (one node), in the database on PostgreSQL, so that every
	// node draws from the same bucket.
	Buckets() quota.Buckets
	// SharedSecret returns the secret every node derives its signing
	// keys from, or ok false when the engine keeps none.
	SharedSecret(ctx context.Context) (secret []byte, ok bool, err error)
	// River returns River's driver on the write pool, and whether River
	// must poll for new jobs (no LISTEN/NOTIFY).
	River() (driver riverdriver.Driver[*sql.Tx], pollOnly bool)
	// MigrateRiver applies River's pending migrations so that processes
	// starting together take turns.
	MigrateRiver(ctx context.Context, m *rivermigrate.Migrator[*sql.Tx]) error
	// Close releases what the engine holds beyond the pools.
	Close() error
}

// Config is what [New] takes from the engine package.
type Config struct {
	// Read serves reads; Write serves writes (SQLite: one connection,
	// its one writer; PostgreSQL: the same pool as Read).
	Read, Write *sql.DB
	Dialect     Dialect
	Engine      Engine
	// Now returns the current time; default time.Now.
	Now func() time.Time
}

// DB is an open store. Its methods are safe for concurrent use.
type DB struct {
	read, write handle
	d           Dialect
	eng         Engine
	now         func() time.Time
	stmts       prepared
}

// New returns the store on cfg's pools, whose schema is migrated
// ([Migrate]), with the hot statements prepared. Close closes the pools.
func New(ctx context.Context, cfg Config) (*DB, error) {
	db := &DB{d: cfg.Dialect, eng: cfg.Engine, now: cfg.Now}
	if db.now == nil {
		db.now = time.Now
	}
	db.read = handle{db: cfg.Read, fail: db.d.Unavailable}
	db.write = handle{db: cfg.Write, fail: db.d.Unavailable}
	if err := db.prepare(ctx); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	return db, nil
}

// Close closes the statements, both pools and the engine.
func (db *DB) Close() error {
	err := errors.Join(db.stmts.close(), db.write.db.Close())
	if db.read.db != db.write.db {
		err = errors.Join(err, db.read.db.Close())
	}
	if err = errors.Join(err, db.eng.Close()); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Ready reports whether the database can take a write now.
func (db *DB) Ready(ctx context.Context) error { return db.eng.Ready(ctx) }

// clock returns the time a write records: UTC, whole seconds.
func (db *DB) clock() time.Time { return db.now().UTC().Truncate(time.Second) }

// inTx runs fn in a write transaction, committing if it returns nil and
// rolling back otherwise. Errors, fn's too, pass the dialect's
// classifier: a busy or unreachable database is [apperr.Unavailable].
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.write.db.BeginTx(ctx, nil)
	if err != nil {
		return db.d.Unavailable(fmt.Errorf("store: begin: %w", err))
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return db.d.Unavailable(err)
	}
	if err := tx.Commit(); err != nil {
		return db.d.Unavailable(fmt.Errorf("store: commit: %w", err))
	}
	return nil
}
