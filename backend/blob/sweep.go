package blob

import (
	"context"
	"fmt"
	"time"
)

// sweepBatch is how many keys Sweep hands to known at once: few enough
// for one SQL IN list, many enough to keep round trips rare.
const sweepBatch = 500

// Known reports which of keys a database row still refers to; keys it
// leaves out (or maps to false) are orphans.
type Known func(ctx context.Context, keys []string) (map[string]bool, error)

// Sweep deletes the objects under prefix that were last written before
// now-olderThan and that known does not report: bytes whose row never
// committed (a crash between the put and the transaction) or whose row
// was deleted without them. olderThan must exceed the longest time
// between a put and the commit of its row, or Sweep would delete an
// object whose row is about to appear. It lists and checks in batches of
// 500, returns how many objects it deleted, and stops at the first error
// (the store's, known's or ctx's), returning it with the count so far.
func Sweep(ctx context.Context, store Store, prefix string, olderThan time.Duration, now time.Time, known Known) (deleted int, err error) {
	if olderThan <= 0 {
		return 0, fmt.Errorf("blob: sweep %s: olderThan must be positive, not %v", prefix, olderThan)
	}
	cutoff := now.Add(-olderThan)
	batch := make([]string, 0, sweepBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		rows, err := known(ctx, batch)
		if err != nil {
			return fmt.Errorf("blob: sweep %s: known: %w", prefix, err)
		}
		for _, key := range batch {
			if rows[key] {
				continue
			}
			if err := store.Delete(ctx, key); err != nil {
				return fmt.Errorf("blob: sweep %s: %w", prefix, err)
			}
			deleted++
		}
		batch = batch[:0]
		return nil
	}
	for info, err := range store.List(ctx, prefix) {
		if err != nil {
			return deleted, fmt.Errorf("blob: sweep %s: %w", prefix, err)
		}
		if !info.ModTime.Before(cutoff) {
			continue
		}
		batch = append(batch, info.Key)
		if len(batch) == sweepBatch {
			if err := flush(); err != nil {
				return deleted, err
			}
		}
	}
	if err := flush(); err != nil {
		return deleted, err
	}
	return deleted, nil
}
