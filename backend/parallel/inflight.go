package parallel

import (
	"context"
	"sync"
)

// InFlight counts what runs at once by key against a limit: the media
// part PUTs of one upload or one client, the video jobs of one account,
// the template runs of one account. It is safe for concurrent use.
type InFlight struct {
	limit int
	mu    sync.Mutex
	n     map[string]int
	// left, made only while someone waits in [InFlight.Wait], is closed
	// by the next Leave: the waiters then look again.
	left chan struct{}
}

// NewInFlight returns a count that lets limit run at once for each key.
func NewInFlight(limit int) *InFlight { return &InFlight{limit: limit, n: map[string]int{}} }

// Enter counts one more for key and reports true, or reports false, and
// counts nothing, when key is at the limit.
func (f *InFlight) Enter(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.enter(key)
}

func (f *InFlight) enter(key string) bool {
	if f.n[key] >= f.limit {
		return false
	}
	f.n[key]++
	return true
}

// Wait counts one more for key as soon as key is under the limit, or
// returns ctx's error, and counts nothing, when ctx ends first. Waiters
// are not queued in order: a Leave wakes them all and the first to look
// again enters.
func (f *InFlight) Wait(ctx context.Context, key string) error {
	for {
		f.mu.Lock()
		if f.enter(key) {
			f.mu.Unlock()
			return nil
		}
		if f.left == nil {
			f.left = make(chan struct{})
		}
		left := f.left
		f.mu.Unlock()
		select {
		case <-left:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Leave counts one less for key; each true Enter or nil Wait is followed
// by one Leave.
func (f *InFlight) Leave(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key]--; f.n[key] <= 0 {
		delete(f.n, key)
	}
	if f.left != nil {
		close(f.left)
		f.left = nil
	}
}
