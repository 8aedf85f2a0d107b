package storetest

import (
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func sessionScenarios() []scenario {
	return []scenario{
		{"password hash", sessionPasswordHash},
		{"create revoke prune", sessionLifecycle},
	}
}

// newSession returns session n of the account, made at the clock's time
// and lasting ttl.
func (e *env) newSession(n int, accountID string, ttl time.Duration) *account.Session {
	return &account.Session{ID: uuidN(n), AccountID: accountID, CSRFToken: "csrf-" + uuidN(n), CreatedAt: e.now(),
		ExpiresAt: e.now().Add(ttl)}
}

func sessionPasswordHash(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	got, h, err := s.PasswordHash(e.ctx, a.Email)
	must(t, err)
	if got.ID != a.ID || h != "" {
		t.Errorf("before setting: %s %q; want %s and no hash", got.ID, h, a.ID)
	}
	_, _, err = s.PasswordHash(e.ctx, "nobody@example.test")
	wantKind(t, err, apperr.NotFound)
	_, err = s.SetPasswordHash(e.ctx, "nobody@example.test", "$argon2id$x")
	wantKind(t, err, apperr.NotFound)

	// Setting a password signs the account out everywhere.
	must(t, s.CreateSession(e.ctx, e.newSession(1, a.ID, time.Hour), hash("s1")))
	got, err = s.SetPasswordHash(e.ctx, a.Email, "$argon2id$x")
	must(t, err)
	if got.ID != a.ID || got.Email != a.Email {
		t.Errorf("SetPasswordHash returned %+v", got)
	}
	if _, h, _ = s.PasswordHash(e.ctx, a.Email); h != "$argon2id$x" {
		t.Errorf("hash = %q", h)
	}
	if sess, err := s.SessionByTokenHash(e.ctx, hash("s1")); err != nil || !sess.Revoked {
		t.Errorf("session after a password change: %+v, %v; want revoked", sess, err)
	}
}

// sessionLifecycle: sessions are read back whatever their state; pruning
// at a time drops the ones expired before it and the revoked ones made
// before it, nothing else.
func sessionLifecycle(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	live := e.newSession(1, a.ID, 12*time.Hour)
	must(t, s.CreateSession(e.ctx, live, hash("live")))
	must(t, s.CreateSession(e.ctx, e.newSession(2, a.ID, time.Minute), hash("short")))
	must(t, s.CreateSession(e.ctx, e.newSession(3, a.ID, time.Hour), hash("to revoke")))
	must(t, s.CreateSession(e.ctx, e.newSession(4, a.ID, time.Hour), hash("ends at the prune")))
	wantKind(t, s.CreateSession(e.ctx, e.newSession(5, uuidN(99), time.Hour), hash("x")), apperr.NotFound)

	got, err := s.SessionByTokenHash(e.ctx, hash("live"))
	must(t, err)
	if got.ID != live.ID || got.AccountID != a.ID || got.Email != a.Email || got.CSRFToken != live.CSRFToken ||
		!sameTime(got.CreatedAt, live.CreatedAt) || !sameTime(got.ExpiresAt, live.ExpiresAt) || got.Revoked {
		t.Errorf("session = %+v, want %+v", got, live)
	}
	_, err = s.SessionByTokenHash(e.ctx, hash("unknown"))
	wantKind(t, err, apperr.NotFound)
	must(t, s.RevokeSession(e.ctx, hash("unknown")))
	must(t, s.RevokeSession(e.ctx, hash("to revoke")))

	// An hour on, the short session has been expired for 59 minutes; it
	// is still read back until pruned.
	e.clock.Advance(time.Hour)
	if got, err := s.SessionByTokenHash(e.ctx, hash("short")); err != nil || !got.ExpiresAt.Before(e.now()) {
		t.Errorf("expired session before pruning: %+v, %v", got, err)
	}
	must(t, s.DeleteSessionsBefore(e.ctx, e.now()))
	for _, tc := range []struct {
		token string
		kept  bool
	}{
		{"live", true},
		{"short", false},
		{"to revoke", false},
		{"ends at the prune", true},
	} {
		_, err := s.SessionByTokenHash(e.ctx, hash(tc.token))
		if kept := err == nil; kept != tc.kept || err != nil && apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("session %q after pruning: %v; want kept %v", tc.token, err, tc.kept)
		}
	}
}
