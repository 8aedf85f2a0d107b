// Package sqlite is the store's SQLite engine: one file through the
// pure-Go modernc.org/sqlite driver, the embedded default. The queries
// are package sqlstore's; this package opens the file, supplies the
// dialect ([dialect]) and does what only SQLite needs: its pragmas, a
// pool of readers and a writer pool of one connection (SQLite has one
// writer), busy handling, and the burst limits' buckets in process
// memory. Both pools are in WAL mode with a busy timeout, so another
// process (the admin CLI) may open the same file while the server runs.
// A write that still finds the write lock taken when the busy timeout
// ends fails with [apperr.Unavailable] and a retry hint, and
// [sqlstore.DB.Ready] reports such a lock at once.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// DefaultBusyTimeout is how long a connection waits for another's lock
// before a write fails as busy ([Options.BusyTimeout]).
const DefaultBusyTimeout = 5 * time.Second

// Options configure [Open].
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// BusyTimeout is how long a write waits for the write lock another
	// process holds before it fails with [apperr.Unavailable]; 0 is
	// [DefaultBusyTimeout]. Tests shorten it.
	BusyTimeout time.Duration
}

// migrationFS holds the numbered migrations. It is read-only.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// engine is what only SQLite does ([sqlstore.Engine]).
type engine struct {
	read, write *sql.DB
	busy        time.Duration
	buckets     *quota.MemoryBuckets
}

// Open opens (creating if needed) the database at path and applies the
// pending migrations; processes opening the same file at once take turns
// (a lock on the file path+"-migrate.lock"). The path ":memory:" opens a
// private in-memory database, for tests; it uses one connection for
// reads and writes.
func Open(ctx context.Context, path string, opts Options) (*sqlstore.DB, error) {
	db, _, err := open(ctx, path, opts)
	return db, err
}

// open is Open, also returning the engine (its pools, for tests).
func open(ctx context.Context, path string, opts Options) (*sqlstore.DB, *engine, error) {
	if path == "" {
		return nil, nil, errors.New("sqlite: open: empty path")
	}
	e := &engine{busy: opts.BusyTimeout, buckets: quota.NewMemoryBuckets()}
	if e.busy <= 0 {
		e.busy = DefaultBusyTimeout
	}
	var locker *fileLocker
	if path == ":memory:" {
		w, err := sql.Open("sqlite", memoryDSN())
		if err != nil {
			return nil, nil, fmt.Errorf("sqlite: open memory: %w", err)
		}
		// Every connection to :memory: is a database of its own: keep one.
		w.SetMaxOpenConns(1)
		w.SetConnMaxLifetime(0)
		w.SetConnMaxIdleTime(0)
		e.read, e.write = w, w
	} else {
		w, err := sql.Open("sqlite", fileDSN(path, true, e.busy))
		if err != nil {
			return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		w.SetMaxOpenConns(1)
		r, err := sql.Open("sqlite", fileDSN(path, false, e.busy))
		if err != nil {
			w.Close()
			return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		e.read, e.write, locker = r, w, newFileLocker(path+"-migrate.lock")
	}
	migrations, _ := fs.Sub(migrationFS, "migrations")
	m := sqlstore.Migrations{FS: migrations, Dialect: goose.DialectSQLite3,
		TableExists: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1`}
	if locker != nil {
		m.Locker = locker
	}
	if err := sqlstore.Migrate(ctx, e.write, m); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("sqlite: %w", e.unavailable(err)), e.closePools())
	}
	db, err := sqlstore.New(ctx, sqlstore.Config{Read: e.read, Write: e.write, Dialect: e.dialect(), Engine: e, Now: opts.Now})
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: %w", err)
	}
	return db, e, nil
}

// fileDSN returns the DSN of a file connection: busy_timeout first, then
// WAL, foreign keys and synchronous NORMAL. Writers begin transactions
// IMMEDIATE, taking the write lock up front (waiting up to the busy
// timeout) rather than failing when a read upgrades to a write.
func fileDSN(path string, write bool, busy time.Duration) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if write {
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return path + "?" + q.Encode()
}

func memoryDSN() string {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(ON)")
	return ":memory:?" + q.Encode()
}

// closePools closes both pools (sqlstore.DB.Close does once the store is
// open).
func (e *engine) closePools() error {
	err := e.write.Close()
	if e.read != e.write {
		err = errors.Join(err, e.read.Close())
	}
	return err
}

func (e *engine) Buckets() quota.Buckets { return e.buckets }

// SharedSecret reports none: one SQLite file serves one node, whose
// signing keys come from the data folder's install.key.
func (e *engine) SharedSecret(context.Context) ([]byte, bool, error) { return nil, false, nil }

// River is riversqlite on the write pool. River shares the one writer
// connection with the store's writes (the driver asks for
// SetMaxOpenConns(1), which the write pool has): every River statement
// (fetching jobs, completing them, leader election, maintenance) and
// every store write take turns on that connection, so River never meets
// SQLITE_BUSY from this process, and an InsertTx in a store transaction
// is the same transaction. What it costs is measured in
// queue_bench_test.go (BenchmarkWriteTxBesideQueue): an idle queue
// polling every second costs the store's writes nothing measurable; a
// job enqueued and worked costs about 5 extra writer turns. SQLite has
// no LISTEN/NOTIFY: River polls.
func (e *engine) River() (riverdriver.Driver[*sql.Tx], bool) { return riversqlite.New(e.write), true }

// MigrateRiver applies River's migrations in one write transaction, so
// two processes starting at once take turns.
func (e *engine) MigrateRiver(ctx context.Context, m *rivermigrate.Migrator[*sql.Tx]) error {
	tx, err := e.write.BeginTx(ctx, nil)
	if err != nil {
		return e.unavailable(err)
	}
	if _, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, nil); err != nil {
		_ = tx.Rollback()
		return e.unavailable(err)
	}
	return e.unavailable(tx.Commit())
}

// Close has nothing to release beyond the pools.
func (e *engine) Close() error { return nil }
