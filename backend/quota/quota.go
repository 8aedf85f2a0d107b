// Package quota counts successful v1 runs per UTC day and limits bursts.
// A run is counted only once it has succeeded (HTTP 200), in one atomic
// step that refuses it when the pool is full, so the pool is exact under
// any concurrency, failed attempts cost nothing, and nothing is held while
// a run is under way.
package quota

import "time"

// Usage is an account's standing for the current UTC day.
type Usage struct {
	Cap       int
	Used      int
	Remaining int
	// ResetsAt is the next UTC midnight.
	ResetsAt time.Time
}
