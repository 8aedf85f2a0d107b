package postgres

import (
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// newDialect returns PostgreSQL's dialect: timestamptz, date and text[]
// columns; the identity column seq orders rows as inserted; under READ
// COMMITTED the writers that check before they write lock the rows they
// read.
func newDialect() sqlstore.Dialect {
	// typeMaps parse what database/sql hands over as text: arrays. A
	// pgtype.Map memoizes its plans unguarded, so each scan borrows one.
	typeMaps := &sync.Pool{New: func() any { return pgtype.NewMap() }}
	return sqlstore.Dialect{
		Time: func(t time.Time) any { return t },
		// pgx writes a time.Time's calendar date in its own zone: UTC.
		Day:            func(t time.Time) any { return t.UTC() },
		List:           textList,
		ScanList:       func(dst *[]string) any { return textArray{dst, typeMaps} },
		Unique:         isUnique,
		ForeignKey:     isForeignKey,
		Unavailable:    unavailable,
		Seq:            "seq",
		ForUpdate:      "FOR UPDATE",
		ForNoKeyUpdate: "FOR NO KEY UPDATE",
		ForShare:       "FOR SHARE",
		// A transaction-scoped advisory lock: under READ COMMITTED two nodes
		// could both find the accounts table empty ("firstacc" in ASCII).
		FirstAccountLock: fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d)`, firstAccountLock),
		Greatest:         "GREATEST",
		Bytewise:         ` COLLATE "C"`,
		// The run is compared as text: args of other kinds may hold anything
		// under "run", and a cast would fail on them. The deliveries found
		// stay locked until the transaction ends.
		StuckDeliveries: `SELECT d.id, d.status, d.window_start
		FROM river_job j JOIN webhook_deliveries d ON d.id = j.args->>'deliveryId' AND d.run::text = j.args->>'run'
		WHERE j.kind = $1 AND j.state = 'running' AND j.attempted_at < $2 AND d.status = 'pending'
		ORDER BY d.id FOR UPDATE OF d`,
	}
}

// firstAccountLock is EnsureFirstAccount's advisory lock key
// ("firstacc" in ASCII).
const firstAccountLock int64 = 0x6669727374616363

// textList is a list for a text[] NOT NULL column: pgx sends a nil slice
// as NULL, so nil becomes the empty array.
func textList(list []string) any {
	if list == nil {
		return []string{}
	}
	return list
}

// textArray scans a text[] column, leaving an empty, non-nil slice for
// the empty array.
type textArray struct {
	dst  *[]string
	maps *sync.Pool
}

func (a textArray) Scan(src any) error {
	m := a.maps.Get().(*pgtype.Map)
	defer a.maps.Put(m)
	if err := m.SQLScanner(a.dst).Scan(src); err != nil {
		return fmt.Errorf("postgres: scan list: %w", err)
	}
	if *a.dst == nil {
		*a.dst = []string{}
	}
	return nil
}
