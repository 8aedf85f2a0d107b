package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Timestamps are RFC 3339 UTC text with whole seconds, which sort as
// text; days are ISO dates.
const dayLayout = time.DateOnly

func formatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("sqlite: bad timestamp %q: %w", s, err)
	}
	return t.UTC(), nil
}

func formatNullTime(t *time.Time) sql.NullString {
	if t == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: formatTime(*t), Valid: true}
}

func parseNullTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := parseTime(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func formatDay(day time.Time) string { return day.UTC().Format(dayLayout) }

// encodeList stores a string list as a JSON array (never null).
func encodeList(list []string) string {
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list)
	return string(b)
}

// decodeList reads a JSON array; an empty array gives an empty, non-nil
// slice.
func decodeList(s string) ([]string, error) {
	list := []string{}
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		return nil, fmt.Errorf("sqlite: bad list %q: %w", s, err)
	}
	return list, nil
}
