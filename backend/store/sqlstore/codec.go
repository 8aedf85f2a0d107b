package sqlstore

import (
	"fmt"
	"time"
)

// Scan destinations of time columns, which come back as RFC 3339 text
// (SQLite), ISO dates (SQLite's date columns) or time.Time (PostgreSQL),
// always as UTC.

// timeCol scans a NOT NULL time or date column into *t.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(src any) error {
	if src == nil {
		return fmt.Errorf("store: NULL in a NOT NULL time column")
	}
	t, err := parseTime(src)
	*c.t = t
	return err
}

// at returns the scan destination of a NOT NULL time column.
func at(t *time.Time) timeCol { return timeCol{t} }

// optTime scans a nullable time column: NULL leaves nil (ptr) or the
// zero time (zero).
type optTime struct {
	ptr  **time.Time
	zero *time.Time
}

func (c optTime) Scan(src any) error {
	if src == nil {
		if c.ptr != nil {
			*c.ptr = nil
		} else {
			*c.zero = time.Time{}
		}
		return nil
	}
	t, err := parseTime(src)
	if err != nil {
		return err
	}
	if c.ptr != nil {
		*c.ptr = &t
	} else {
		*c.zero = t
	}
	return nil
}

// atOpt returns the destination of a nullable time column kept as a
// pointer (NULL: nil).
func atOpt(t **time.Time) optTime { return optTime{ptr: t} }

// atOrZero returns the destination of a nullable time column kept as a
// value (NULL: the zero time).
func atOrZero(t *time.Time) optTime { return optTime{zero: t} }

func parseTime(src any) (time.Time, error) {
	var s string
	switch v := src.(type) {
	case time.Time:
		return v.UTC(), nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return time.Time{}, fmt.Errorf("store: a time column holds %T", src)
	}
	layout := time.RFC3339
	if len(s) == len(time.DateOnly) {
		layout = time.DateOnly
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad timestamp %q: %w", s, err)
	}
	return t.UTC(), nil
}

// optTimeArg is the value of a nullable time column.
func (db *DB) optTimeArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return db.ts(*t)
}

// ts is the value of a time column, whole seconds in UTC.
func (db *DB) ts(t time.Time) any { return db.d.Time(t.UTC().Truncate(time.Second)) }

// list is the value of a list column; scanList its destination.
func (db *DB) list(l []string) any { return db.d.List(l) }

func (db *DB) scanList(l *[]string) any { return db.d.ScanList(l) }
