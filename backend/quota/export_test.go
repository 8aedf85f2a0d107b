package quota

// Buckets reports how many per-key buckets are held, for tests.
func (s *Service) Buckets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.buckets)
}

// AccountBuckets reports how many per-account buckets are held, for tests.
func (s *Service) AccountBuckets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.accounts)
}
