package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func newSession(id, accountID string, expires time.Time) *account.Session {
	return &account.Session{ID: id, AccountID: accountID, CSRFToken: "csrf-" + id, CreatedAt: acctT0, ExpiresAt: expires}
}

func TestPasswordHash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)

	a, hash, err := s.PasswordHash(ctx, "one@example.test")
	checkKind(t, err, apperr.Internal)
	if a.ID != "id-1" || hash != "" {
		t.Errorf("before setting: %s %q; want id-1 and no hash", a.ID, hash)
	}
	_, _, err = s.PasswordHash(ctx, "nobody@example.test")
	checkKind(t, err, apperr.NotFound)
	_, err = s.SetPasswordHash(ctx, "nobody@example.test", "$argon2id$x")
	checkKind(t, err, apperr.NotFound)

	// Setting a password signs the account out everywhere, and only it.
	checkKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", acctT0.Add(time.Hour)), []byte("h1")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-2", "id-2", acctT0.Add(time.Hour)), []byte("h2")), apperr.Internal)
	a, err = s.SetPasswordHash(ctx, "one@example.test", "$argon2id$x")
	checkKind(t, err, apperr.Internal)
	if a.Email != "one@example.test" {
		t.Errorf("SetPasswordHash returned %+v", a)
	}
	if _, hash, _ = s.PasswordHash(ctx, "one@example.test"); hash != "$argon2id$x" {
		t.Errorf("hash = %q", hash)
	}
	if got, err := s.SessionByTokenHash(ctx, []byte("h1")); err != nil || !got.Revoked {
		t.Errorf("session after a password change: %+v, %v; want revoked", got, err)
	}
	if got, err := s.SessionByTokenHash(ctx, []byte("h2")); err != nil || got.Revoked {
		t.Errorf("another account's session: %+v, %v; want live", got, err)
	}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

	live := newSession("s-live", "id-1", acctT0.Add(12*time.Hour))
	checkKind(t, s.CreateSession(ctx, live, []byte("live")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-old", "id-1", acctT0.Add(time.Minute)), []byte("old")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-keep", "id-1", acctT0.Add(2*time.Hour)), []byte("keep")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-x", "nobody", acctT0.Add(time.Hour)), []byte("x")), apperr.NotFound)

	got, err := s.SessionByTokenHash(ctx, []byte("live"))
	checkKind(t, err, apperr.Internal)
	if got.ID != live.ID || got.AccountID != "id-1" || got.Email != "one@example.test" || got.CSRFToken != live.CSRFToken ||
		got.CreatedAt != acctT0 || got.ExpiresAt != live.ExpiresAt || got.Revoked {
		t.Errorf("session = %+v", got)
	}
	_, err = s.SessionByTokenHash(ctx, []byte("unknown"))
	checkKind(t, err, apperr.NotFound)

	checkKind(t, s.RevokeSession(ctx, []byte("unknown")), apperr.Internal)
	checkKind(t, s.RevokeSession(ctx, []byte("live")), apperr.Internal)
	if got, _ := s.SessionByTokenHash(ctx, []byte("live")); got == nil || !got.Revoked {
		t.Errorf("after revoke: %+v", got)
	}

	// Pruning at t0+1h drops the expired and the revoked session, not
	// the live one.
	checkKind(t, s.DeleteSessionsBefore(ctx, acctT0.Add(time.Hour)), apperr.Internal)
	for _, h := range []string{"live", "old"} {
		_, err := s.SessionByTokenHash(ctx, []byte(h))
		checkKind(t, err, apperr.NotFound)
	}
	_, err = s.SessionByTokenHash(ctx, []byte("keep"))
	checkKind(t, err, apperr.Internal)
}
