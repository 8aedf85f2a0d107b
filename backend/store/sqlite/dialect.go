package sqlite

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// dialect is SQLite's: times are RFC 3339 UTC text with whole seconds,
// which sort as text; days are ISO dates; lists are JSON arrays; rowid
// orders rows as inserted; the write transaction (BEGIN IMMEDIATE) holds
// the database's one write lock, so no statement locks rows.
func (e *engine) dialect() sqlstore.Dialect {
	return sqlstore.Dialect{
		Time:        func(t time.Time) any { return t.UTC().Format(time.RFC3339) },
		Day:         func(t time.Time) any { return t.UTC().Format(time.DateOnly) },
		List:        encodeList,
		ScanList:    func(dst *[]string) any { return jsonList{dst} },
		Unique:      isUnique,
		ForeignKey:  isForeignKey,
		Unavailable: e.unavailable,
		Seq:         "rowid",
		Greatest:    "max",
		// River keeps times as "2006-01-02 15:04:05.000" text and the
		// store as RFC 3339; julianday reads both.
		StuckDeliveries: `SELECT d.id, d.status, d.window_start
			FROM river_job j JOIN webhook_deliveries d
				ON d.id = json_extract(j.args, '$.deliveryId') AND d.run = json_extract(j.args, '$.run')
			WHERE j.kind = $1 AND j.state = 'running' AND julianday(j.attempted_at) < julianday($2) AND d.status = 'pending'`,
	}
}

// encodeList stores a string list as a JSON array (never null).
func encodeList(list []string) any {
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list)
	return string(b)
}

// jsonList scans a JSON array; an empty array gives an empty, non-nil
// slice.
type jsonList struct{ dst *[]string }

func (l jsonList) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("sqlite: a list column holds %T", src)
	}
	list := []string{}
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("sqlite: bad list %q: %w", b, err)
	}
	*l.dst = list
	return nil
}
