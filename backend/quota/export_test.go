package quota

import "strings"

// Buckets reports how many per-key buckets are held (not yet full), for
// tests of a service with the memory buckets.
func (s *Service) Buckets() int { return s.held(keyBucket) }

// AccountBuckets reports how many per-account buckets are held, for tests.
func (s *Service) AccountBuckets() int { return s.held(accountBucket) }

func (s *Service) held(prefix string) int {
	m := s.buckets.(*MemoryBuckets)
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for name := range m.tat {
		if strings.HasPrefix(name, prefix) {
			n++
		}
	}
	return n
}
