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

// Limits every key obeys, whoever creates it.
const (
	// MaxKeyLifetime is the longest a key may live from its creation: an
	// explicit expiry further away is refused, and a default lifetime
	// ([Options.DefaultKeyTTL]) above it is cut to it. A leaked key that
	// nobody revokes thus stops working within a year.
	MaxKeyLifetime = 365 * 24 * time.Hour
	// MaxActiveKeys is the most keys an account may hold that are neither
	// revoked nor expired. Revoked and expired keys do not count, and
	// creating one more is refused until one is revoked or expires. It
	// bounds the rows an account can add, and the burst limit is counted
	// per account as well as per key, so more keys do not buy more bursts.
	MaxActiveKeys = 100
	// MaxKeyListLimit is the most keys a page of [Service.ListKeys]
	// holds, and DefaultKeyListLimit the page a caller gets without
	// asking: as many as an account may hold active.
	DefaultKeyListLimit = 100
	MaxKeyListLimit     = 100
)

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// DefaultKeyTTL is the lifetime of a key created without an expiry;
	// default [DefaultKeyTTL] (90 days), at most [MaxKeyLifetime].
	DefaultKeyTTL time.Duration
	// ProDailyCap is the daily cap of a new pro account created without
	// one; default [DefaultProDailyCap]. Values outside 1 to
	// [MaxProDailyCap] take the default.
	ProDailyCap int
	// SessionTTL is the lifetime of a dashboard session from sign-in (not
	// sliding); default [DefaultSessionTTL] (12 hours).
	SessionTTL time.Duration
	// Throttle slows down password guessing in [Service.SignIn]; nil
	// throttles nothing.
	Throttle Throttle
}

// Service manages accounts, API keys, passwords and dashboard sessions,
// and authenticates Bearer secrets and session tokens.
// It is safe for concurrent use.
type Service struct {
	store    Store
	now      func() time.Time
	keyTTL   time.Duration
	proCap   int
	sessTTL  time.Duration
	throttle Throttle
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, now: opts.Now, keyTTL: opts.DefaultKeyTTL, proCap: opts.ProDailyCap,
		sessTTL: opts.SessionTTL, throttle: opts.Throttle}
	if s.now == nil {
		s.now = time.Now
	}
	if s.keyTTL <= 0 {
		s.keyTTL = DefaultKeyTTL
	}
	s.keyTTL = min(s.keyTTL, MaxKeyLifetime)
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
