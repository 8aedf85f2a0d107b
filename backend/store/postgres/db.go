// Package postgres stores CaptionQA's data in PostgreSQL through pgx v5,
// for several nodes of the same binary sharing one database. It implements
// the Store interfaces the domain packages declare, as package sqlite
// does for the embedded default; the store conformance suite
// (store/storetest) runs against both. The job queue is River on the same
// database through riverpgxv5: jobs are fetched with FOR UPDATE SKIP
// LOCKED by any node and woken by LISTEN/NOTIFY.
//
// Times are timestamptz, truncated to whole seconds as the SQLite store
// keeps them; the clock is injected ([Options.Now]), never the server's
// now(), so tests with a fake clock behave on both stores alike.
package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options configure [Open].
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// MaxConns bounds the pool (default: pgxpool's, 4 or the CPU count).
	MaxConns int32
	// Tracer, if set, sees every query (the benchmarks count round trips
	// with it).
	Tracer pgx.QueryTracer
}

// DB is an open database: a pool of connections.
type DB struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// Open connects to the database at url (postgres://user:pass@host/db?...,
// or any form pgx accepts), applies the pending migrations under an
// advisory lock, so nodes starting together take turns, and returns it.
// Errors name what failed; a server that cannot be reached is one.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx masks the password in its parse errors.
		return nil, fmt.Errorf("postgres: bad store URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	db := &DB{pool: pool, now: opts.Now}
	if db.now == nil {
		db.now = time.Now
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect to %s:%d/%s: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// clock is the store's time for rows it writes: UTC, whole seconds.
func (db *DB) clock() time.Time { return db.now().UTC().Truncate(time.Second) }

// querier is what a pool and a transaction share: stores write through
// either.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// inTx runs fn in a transaction, committing if it returns nil and
// rolling back otherwise; a lost connection or a database that is not
// there is [apperr.Unavailable].
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: begin: %w", err))
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(ctx)
		return unavailable(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable(fmt.Errorf("postgres: commit: %w", err))
	}
	return nil
}

// Ready reports whether the database answers a query now.
func (db *DB) Ready(ctx context.Context) error {
	var one int
	if err := db.pool.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil {
		return unavailable(fmt.Errorf("postgres: ready: %w", err))
	}
	return nil
}
