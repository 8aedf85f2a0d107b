package sqlite

import (
	"errors"
	"math"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/captionqa/captionqa/backend/apperr"
)

// constraint returns the extended result code of a constraint violation
// in err's chain, or 0. Classification goes by the driver's code, never by
// the error text.
func constraint(err error) int {
	var e *sqlite.Error
	if !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_CONSTRAINT {
		return 0
	}
	return e.Code()
}

// isUnique reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUnique(err error) bool {
	c := constraint(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// isForeignKey reports whether err is a FOREIGN KEY violation.
func isForeignKey(err error) bool {
	return constraint(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED (any
// extended code): another connection held the lock past the busy timeout.
func isBusy(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// unavailable classifies a busy err as [apperr.Unavailable] with
// details.retryAfterSeconds (the API answers 503 with Retry-After),
// wrapping err so its driver code stays in the chain; any other error,
// and one already classified, comes back as is. A busy database is
// another process holding the write lock (an admin command, a backup, a
// sqlite3 shell left in a transaction): a condition of the moment, not a
// defect, so the client is told to retry rather than shown a 500.
func (e *engine) unavailable(err error) error {
	if err == nil || !isBusy(err) || apperr.KindOf(err) == apperr.Unavailable {
		return err
	}
	return busyError(e.busy, err)
}

// busyError is the error of a write refused because the database is
// busy. The client is told to retry after the busy timeout (rounded up to
// whole seconds): the holder has kept the lock at least that long.
func busyError(busy time.Duration, cause error) *apperr.Error {
	return apperr.New(apperr.Unavailable, "the database is busy: another process holds its write lock; retry later").
		WithDetail("retryAfterSeconds", max(1, int(math.Ceil(busy.Seconds())))).Wrap(cause)
}
