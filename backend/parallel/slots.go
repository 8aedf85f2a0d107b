package parallel

import (
	"context"
	"runtime"
)

// Slots is a counting semaphore: at most its capacity of holders at
// once, the rest waiting their turn. The engine's runs take one each, so
// that runs beyond the cores queue instead of sharing them and all
// finishing late.
type Slots chan struct{}

// NewSlots returns n slots; n <= 0 is GOMAXPROCS.
func NewSlots(n int) Slots {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return make(Slots, n)
}

// Take waits for a free slot, or returns ctx's error when ctx ends first.
func (s Slots) Take(ctx context.Context) error {
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Give frees a slot Take took.
func (s Slots) Give() { <-s }
