// Package postgres is the store's PostgreSQL engine, for several nodes
// of the same binary sharing one database. The queries are package
// sqlstore's, on database/sql through pgx's stdlib adapter over a pgx
// pool; this package opens the pool, supplies the dialect ([dialect])
// and does what only PostgreSQL needs: migrations under an advisory
// lock, the burst limits' buckets and the shared secret in tables every
// node reads, and River's driver, riverdatabasesql with its pgx listener:
// InsertTx runs in the store's *sql.Tx (the transactional outbox), jobs
// are fetched with FOR UPDATE SKIP LOCKED by any node and woken by
// LISTEN/NOTIFY on a connection of the pgx pool.
//
// Times are timestamptz, truncated to whole seconds as SQLite keeps
// them.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// Options configure [Open].
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// MaxConns bounds the pool (default: pgxpool's, 4 or the CPU count).
	// River holds one connection for LISTEN: the pool needs at least two.
	MaxConns int32
	// Tracer, if set, sees every query (the benchmarks count round trips
	// with it).
	Tracer pgx.QueryTracer
}

// migrationFS holds the numbered migrations. It is read-only.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// migrationLock is the advisory lock key nodes take while migrating:
// the first to start applies what is pending, the others wait, then find
// nothing left ("captionq" in ASCII).
const migrationLock int64 = 0x63617074696f6e71

// engine is what only PostgreSQL does ([sqlstore.Engine]).
type engine struct {
	pool *pgxpool.Pool
	db   *sql.DB // database/sql over pool
}

// Open connects to the database at url (postgres://user:pass@host/db?...,
// or any form pgx accepts), applies the pending migrations under an
// advisory lock, so nodes starting together take turns, and returns the
// store. Errors name what failed; a server that cannot be reached is
// one.
func Open(ctx context.Context, url string, opts Options) (*sqlstore.DB, error) {
	db, _, err := open(ctx, url, opts)
	return db, err
}

// open is Open, also returning the engine (its pool, for tests).
func open(ctx context.Context, url string, opts Options) (*sqlstore.DB, *engine, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx masks the password in its parse errors.
		return nil, nil, fmt.Errorf("postgres: bad store URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: open: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("postgres: connect to %s:%d/%s: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	e := &engine{pool: pool, db: stdlib.OpenDBFromPool(pool)}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLock))
	if err != nil {
		e.closeAll()
		return nil, nil, fmt.Errorf("postgres: %w", err)
	}
	migrations, _ := fs.Sub(migrationFS, "migrations")
	err = sqlstore.Migrate(ctx, e.db, sqlstore.Migrations{FS: migrations, Dialect: goose.DialectPostgres, Locker: locker,
		Serialize:   fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d)`, migrationLock),
		TableExists: `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`})
	if err != nil {
		e.closeAll()
		return nil, nil, fmt.Errorf("postgres: %w", unavailable(err))
	}
	db, err := sqlstore.New(ctx, sqlstore.Config{Read: e.db, Write: e.db, Dialect: newDialect(), Engine: e, Now: opts.Now})
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: %w", err)
	}
	return db, e, nil
}

func (e *engine) closeAll() {
	e.db.Close()
	e.pool.Close()
}

// Close closes the pgx pool (sqlstore.DB.Close closes the database/sql
// handle over it first).
func (e *engine) Close() error {
	e.pool.Close()
	return nil
}

// Ready reports whether the database answers a query now.
func (e *engine) Ready(ctx context.Context) error {
	var one int
	if err := e.pool.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil {
		return unavailable(fmt.Errorf("postgres: ready: %w", err))
	}
	return nil
}

func (e *engine) Buckets() quota.Buckets { return &BucketStore{pool: e.pool} }

// Admit admits a request in one round trip ([BucketStore.Admit]).
func (e *engine) Admit(ctx context.Context, now time.Time, bs []quota.Bucket, day time.Time, pools []string) ([]time.Duration, []int, error) {
	return (&BucketStore{pool: e.pool}).Admit(ctx, now, bs, day, pools)
}

// River is riverdatabasesql on the database/sql handle, whose InsertTx
// takes the store's *sql.Tx, with a listener on the pgx pool: inserts
// notify in their transaction, and every node's client wakes on
// LISTEN/NOTIFY (polling only as a fallback).
func (e *engine) River() (riverdriver.Driver[*sql.Tx], bool) {
	return riverdatabasesql.NewWithPgxListener(e.db, e.pool), false
}

// MigrateRiver applies River's pending migrations while holding
// [migrationLock] on one connection. River applies each migration in a
// transaction of its own on another connection: its MigrateTx, which
// would run them all in one, fails on a fresh database (a migration uses
// an enum value an earlier one adds, which PostgreSQL allows only once
// that one has committed).
func (e *engine) MigrateRiver(ctx context.Context, m *rivermigrate.Migrator[*sql.Tx]) error {
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: migrate river: %w", err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return unavailable(fmt.Errorf("postgres: migration lock: %w", err))
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
	}()
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return unavailable(fmt.Errorf("postgres: migrate river: %w", err))
	}
	return nil
}
