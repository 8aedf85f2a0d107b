package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func newSession(id, accountID string, expires time.Time) *account.Session {
	return &account.Session{ID: id, AccountID: accountID, CSRFToken: "csrf-" + id, CreatedAt: t0, ExpiresAt: expires}
}

func TestPasswordHash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

	a, hash, err := s.PasswordHash(ctx, "one@example.test")
	wantKind(t, err, apperr.Internal)
	if a.ID != "id-1" || hash != "" {
		t.Errorf("before setting: %s %q; want id-1 and no hash", a.ID, hash)
	}
	_, _, err = s.PasswordHash(ctx, "nobody@example.test")
	wantKind(t, err, apperr.NotFound)
	_, err = s.SetPasswordHash(ctx, "nobody@example.test", "$argon2id$x")
	wantKind(t, err, apperr.NotFound)

	// Setting a password signs the account out everywhere.
	wantKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", t0.Add(time.Hour)), []byte("h1")), apperr.Internal)
	a, err = s.SetPasswordHash(ctx, "one@example.test", "$argon2id$x")
	wantKind(t, err, apperr.Internal)
	if a.Email != "one@example.test" {
		t.Errorf("SetPasswordHash returned %+v", a)
	}
	if _, hash, _ = s.PasswordHash(ctx, "one@example.test"); hash != "$argon2id$x" {
		t.Errorf("hash = %q", hash)
	}
	if got, err := s.SessionByTokenHash(ctx, []byte("h1")); err != nil || !got.Revoked {
		t.Errorf("session after a password change: %+v, %v; want revoked", got, err)
	}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

	live := newSession("s-live", "id-1", t0.Add(12*time.Hour))
	wantKind(t, s.CreateSession(ctx, live, []byte("live")), apperr.Internal)
	wantKind(t, s.CreateSession(ctx, newSession("s-old", "id-1", t0.Add(time.Minute)), []byte("old")), apperr.Internal)
	wantKind(t, s.CreateSession(ctx, newSession("s-x", "nobody", t0.Add(time.Hour)), []byte("x")), apperr.NotFound)

	got, err := s.SessionByTokenHash(ctx, []byte("live"))
	wantKind(t, err, apperr.Internal)
	if got.ID != live.ID || got.AccountID != "id-1" || got.Email != "one@example.test" || got.CSRFToken != live.CSRFToken ||
		!got.CreatedAt.Equal(t0) || !got.ExpiresAt.Equal(live.ExpiresAt) || got.Revoked {
		t.Errorf("session = %+v", got)
	}
	_, err = s.SessionByTokenHash(ctx, []byte("unknown"))
	wantKind(t, err, apperr.NotFound)

	wantKind(t, s.RevokeSession(ctx, []byte("unknown")), apperr.Internal)
	wantKind(t, s.RevokeSession(ctx, []byte("live")), apperr.Internal)
	if got, _ := s.SessionByTokenHash(ctx, []byte("live")); got == nil || !got.Revoked {
		t.Errorf("after revoke: %+v", got)
	}

	// Pruning at t0+1h drops the expired and the revoked session.
	wantKind(t, s.DeleteSessionsBefore(ctx, t0.Add(time.Hour)), apperr.Internal)
	for _, h := range []string{"live", "old"} {
		_, err := s.SessionByTokenHash(ctx, []byte(h))
		wantKind(t, err, apperr.NotFound)
	}
}
