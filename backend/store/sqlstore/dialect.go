package sqlstore

import "time"

// Dialect is what differs between the engines in the store's SQL and
// values. The engine packages fill it in.
type Dialect struct {
	// Time is the value of a time column: RFC 3339 text on SQLite (fixed
	// width, so text order is time order), timestamptz on PostgreSQL.
	// The times given are already UTC, whole seconds.
	Time func(time.Time) any
	// Day is the value of a date column (a UTC day).
	Day func(time.Time) any
	// List is the value of a string list column: a JSON array on SQLite,
	// text[] on PostgreSQL. nil is stored as the empty list.
	List func([]string) any
	// ScanList is the scan destination of a list column; it leaves an
	// empty, non-nil slice for the empty list.
	ScanList func(*[]string) any
	// Unique and ForeignKey report whether err is a UNIQUE (or primary
	// key) or a FOREIGN KEY violation, from the driver's code.
	Unique, ForeignKey func(err error) bool
	// Unavailable classifies an error of the database's condition (busy,
	// unreachable) as [apperr.Unavailable] with
	// details.retryAfterSeconds, and returns any other error as is.
	Unavailable func(err error) error
	// Seq is the column that orders a table's rows as they were
	// inserted, breaking ties of created_at (whole seconds): SQLite's
	// rowid, PostgreSQL's identity column seq.
	Seq string
	// ForUpdate and ForNoKeyUpdate end a SELECT that locks the rows it
	// reads until the transaction ends; ForShare one that keeps them from
	// changing. Empty on SQLite, whose write transaction holds the
	// database's one write lock from its BEGIN.
	ForUpdate, ForNoKeyUpdate, ForShare string
	// FirstAccountLock is the statement that serialises
	// EnsureFirstAccount across nodes (a lock on rows that do not exist
	// yet is not possible), or empty.
	FirstAccountLock string
	// Greatest names the function of the larger of two values.
	Greatest string
	// Bytewise follows a text expression in ORDER BY to sort it by byte
	// values (SQLite's default; PostgreSQL's COLLATE "C").
	Bytewise string
	// StuckDeliveries selects (id, status, window_start) of the pending
	// webhook deliveries whose current run's River job ($1 the kind) has
	// been running since before $2: the one query on River's tables,
	// whose column types differ between River's drivers.
	StuckDeliveries string
}
