package sqlite

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
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
