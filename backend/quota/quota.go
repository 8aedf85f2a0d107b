// Package quota counts successful v1 runs per UTC day and limits bursts.
// A run reserves one unit of the day's pool before it starts and commits
// it only on success (HTTP 200), releasing it otherwise, so the pool is
// exact under any concurrency and failed attempts cost nothing.
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
