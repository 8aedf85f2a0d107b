package postgres

import "time"

// Values in and out of the columns, where pgx's defaults differ from
// what the domain expects: times as the store keeps them (see second in
// project.go) and lists, which are never NULL.

// secondPtr is second of an optional time: nil stays NULL.
func secondPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	s := second(*t)
	return &s
}

// utcPtr turns a scanned optional time (pgx gives the local zone) to UTC.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// textList is a list for a text[] NOT NULL column: pgx sends a nil slice
// as NULL, so nil becomes the empty array.
func textList(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// dateOf is the date column value of a UTC day: pgx writes a time.Time's
// calendar date in its own zone, so the zone must be UTC.
func dateOf(t time.Time) time.Time { return t.UTC() }
