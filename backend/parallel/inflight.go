package parallel

import "sync"

// InFlight counts what runs at once by key against a limit: the media
// part PUTs of one upload or one client, the video jobs of one account.
// It is safe for concurrent use.
type InFlight struct {
	limit int
	mu    sync.Mutex
	n     map[string]int
}

// NewInFlight returns a count that lets limit run at once for each key.
func NewInFlight(limit int) *InFlight { return &InFlight{limit: limit, n: map[string]int{}} }

// Enter counts one more for key and reports true, or reports false, and
// counts nothing, when key is at the limit.
func (f *InFlight) Enter(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key] >= f.limit {
		return false
	}
	f.n[key]++
	return true
}

// Leave counts one less for key; each true Enter is followed by one Leave.
func (f *InFlight) Leave(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key]--; f.n[key] <= 0 {
		delete(f.n, key)
	}
}
