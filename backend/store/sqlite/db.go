// Package sqlite stores CaptionQA's data in one SQLite file through the
// pure-Go modernc.org/sqlite driver. It implements the Store interfaces the
// domain packages declare. Reads go through a pool of connections, writes
// through a second pool of one connection (SQLite has one writer), both in
// WAL mode with a busy timeout, so another process (the admin CLI) may
// open the same file while the server runs. A write that still finds the
// write lock taken when the busy timeout ends fails with
// [apperr.Unavailable] and a retry hint, and [DB.Ready] reports such a
// lock at once.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	_ "modernc.org/sqlite"

	"github.com/captionqa/captionqa/backend/quota" // registers the "sqlite" driver
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

// DB is an open database.
type DB struct {
	read  *sql.DB
	write writer
	stmts prepared
	now   func() time.Time
	busy  time.Duration
	// buckets are the burst limits' ([Store]).
	buckets *quota.MemoryBuckets
}

// Open opens (creating if needed) the database at path and applies the
// pending migrations. The path ":memory:" opens a private in-memory
// database, for tests; it uses one connection for reads and writes.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("sqlite: open: empty path")
	}
	db := &DB{now: opts.Now, busy: opts.BusyTimeout, buckets: quota.NewMemoryBuckets()}
	if db.now == nil {
		db.now = time.Now
	}
	if db.busy <= 0 {
		db.busy = DefaultBusyTimeout
	}
	if path == ":memory:" {
		w, err := sql.Open("sqlite", memoryDSN())
		if err != nil {
			return nil, fmt.Errorf("sqlite: open memory: %w", err)
		}
		// Every connection to :memory: is a database of its own: keep one.
		w.SetMaxOpenConns(1)
		w.SetConnMaxLifetime(0)
		w.SetConnMaxIdleTime(0)
		db.read, db.write = w, db.writer(w)
	} else {
		w, err := sql.Open("sqlite", fileDSN(path, true, db.busy))
		if err != nil {
			return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		w.SetMaxOpenConns(1)
		db.write = db.writer(w)
		r, err := sql.Open("sqlite", fileDSN(path, false, db.busy))
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		db.read = r
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.prepare(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
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

// Close closes both pools.
func (db *DB) Close() error {
	err := errors.Join(db.stmts.close(), db.write.Close())
	if db.read != db.write.DB {
		err = errors.Join(err, db.read.Close())
	}
	if err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// Ping checks that the database answers on both pools; [DB.Ready] also
// checks that it can take a write.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.write.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if err := db.read.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Accounts returns the store of accounts and API keys.
func (db *DB) Accounts() *AccountStore { return &AccountStore{db: db} }

// Quotas returns the store of daily run counts.
func (db *DB) Quotas() *QuotaStore { return &QuotaStore{db: db} }

// clock returns the time a write records: UTC, whole seconds.
func (db *DB) clock() time.Time { return db.now().UTC().Truncate(time.Second) }
