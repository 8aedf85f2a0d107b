package quota

// Buckets reports how many per-key buckets are held, for tests.
func (s *Service) Buckets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.buckets)
}
