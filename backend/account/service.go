package account

import (
	"time"
)

// Defaults of [Options].
const (
	DefaultKeyTTL      = 90 * 24 * time.Hour
	DefaultProDailyCap = 1000
	DefaultSessionTTL  = 12 * time.Hour
)

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// DefaultKeyTTL is the lifetime of a key created without an expiry;
	// default [DefaultKeyTTL] (90 days).
	DefaultKeyTTL time.Duration
	// ProDailyCap is the daily cap of a new pro account created without
	// one; default [DefaultProDailyCap]. Values outside 1 to
	// [MaxProDailyCap] take the default.
	ProDailyCap int
	// SessionTTL is the lifetime of a dashboard session from sign-in (not
	// sliding); default [DefaultSessionTTL] (12 hours).
	SessionTTL time.Duration
}

// Service manages accounts, API keys, passwords and dashboard sessions,
// and authenticates Bearer secrets and session tokens.
// It is safe for concurrent use.
type Service struct {
	store   Store
	now     func() time.Time
	keyTTL  time.Duration
	proCap  int
	sessTTL time.Duration
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, now: opts.Now, keyTTL: opts.DefaultKeyTTL, proCap: opts.ProDailyCap,
		sessTTL: opts.SessionTTL}
	if s.now == nil {
		s.now = time.Now
	}
	if s.keyTTL <= 0 {
		s.keyTTL = DefaultKeyTTL
	}
	if s.sessTTL <= 0 {
		s.sessTTL = DefaultSessionTTL
	}
	if s.proCap < 1 || s.proCap > MaxProDailyCap {
		s.proCap = DefaultProDailyCap
	}
	return s
}

// clock returns the current time as the store keeps it: UTC, whole
// seconds. One call per operation, so every field it writes agrees.
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Second) }
