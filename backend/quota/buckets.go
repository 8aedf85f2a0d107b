package quota

import (
	"context"
	"time"
)

// Bucket names one token bucket and its size: Burst tokens, refilled at
// one per Every.
type Bucket struct {
	// Name is unique across kinds: "key:<id>", "account:<id>", "<name>".
	Name  string
	Every time.Duration
	Burst int
}

// Buckets keeps token buckets (the burst limits). The memory
// implementation serves one process; the Postgres store keeps them in a
// table so that every node of a cluster draws from the same bucket.
type Buckets interface {
	// Take takes one token from each of bs at now, or from none when any
	// is empty, and returns for each bucket how long until it would have
	// given a token (zero for those that have one now): all zero means
	// taken. A bucket never seen is full.
	Take(ctx context.Context, now time.Time, bs []Bucket) (waits []time.Duration, err error)
}
