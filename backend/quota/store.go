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
	Drawer
}

// Draw is one pool a run counts in, under its cap.
type Draw struct {
	Pool string
	Cap  int
	// What the pool counts, plural, for the refusal's message; ""
	// is "successful runs".
	What string
	// Label names the pool in the refusal's details.pool ("runs",
	// "explain"): the pool's own name is the store's.
	Label string
}

func (d Draw) what() string {
	if d.What == "" {
		return "successful runs"
	}
	return d.What
}

// Drawer counts one run in several pools at once.
type Drawer interface {
	// TakeAll adds one to the count of every pool of draws for day, all in
	// one transaction, if each is below its cap, and returns the new
	// counts with full -1; when a pool is at its cap it changes nothing
	// and returns full, the index of the first such draw. Every cap is at
	// least 1.
	TakeAll(ctx context.Context, day time.Time, draws []Draw) (used []int, full int, err error)
}
