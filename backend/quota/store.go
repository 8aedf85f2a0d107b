package quota

import (
	"context"
	"time"
)

// Store keeps the daily counts, one per pool and UTC day (day is midnight
// UTC). The SQLite adapter implements it.
type Store interface {
	// Take adds one to the count of pool for day if it is below cap, in
	// one atomic step, and returns the new count with ok true; at cap it
	// changes nothing and returns ok false. cap is at least 1.
	Take(ctx context.Context, pool string, day time.Time, cap int) (used int, ok bool, err error)
	// Used returns the count of pool for day, zero if none.
	Used(ctx context.Context, pool string, day time.Time) (int, error)
}
