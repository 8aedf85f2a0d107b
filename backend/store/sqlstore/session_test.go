package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestPasswordHash: an account has no password hash until one is set;
// an unknown email is NotFound; setting an account's password signs
// that account out everywhere, and no other.
func TestPasswordHash(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
		wantKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)

		a, hash, err := s.PasswordHash(ctx, "one@example.test")
		wantKind(t, err, apperr.Internal)
		if a.ID != "id-1" || hash != "" {
			t.Errorf("before setting: %s %q; want id-1 and no hash", a.ID, hash)
		}
		_, _, err = s.PasswordHash(ctx, "nobody@example.test")
		wantKind(t, err, apperr.NotFound)
		_, err = s.SetPasswordHash(ctx, "nobody@example.test", "$argon2id$x")
		wantKind(t, err, apperr.NotFound)

		wantKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", acctT0.Add(time.Hour)), []byte("h1")), apperr.Internal)
		wantKind(t, s.CreateSession(ctx, newSession("s-2", "id-2", acctT0.Add(time.Hour)), []byte("h2")), apperr.Internal)
		a, err = s.SetPasswordHash(ctx, "one@example.test", "$argon2id$x")
		wantKind(t, err, apperr.Internal)
		if a.ID != "id-1" || a.Email != "one@example.test" {
			t.Errorf("SetPasswordHash returned %+v", a)
		}
		if _, hash, err := s.PasswordHash(ctx, "one@example.test"); err != nil || hash != "$argon2id$x" {
			t.Errorf("hash = %q, %v", hash, err)
		}
		if _, hash, err := s.PasswordHash(ctx, "two@example.test"); err != nil || hash != "" {
			t.Errorf("two@'s hash = %q, %v; want none", hash, err)
		}
		for _, tc := range []struct {
			token   string
			revoked bool
		}{
			{"h1", true},
			{"h2", false},
		} {
			if got, err := s.SessionByTokenHash(ctx, []byte(tc.token)); err != nil || got.Revoked != tc.revoked {
				t.Errorf("session %s after one@'s password change: %+v, %v; want revoked %v", tc.token, got, err, tc.revoked)
			}
		}
	})
}

// TestSessions: a session reads back by its token hash with its
// account's email; an unknown account or hash is NotFound; revoking
// marks it, and no other (an unknown hash changes nothing); pruning
// drops the expired and the revoked sessions and keeps the live ones.
func TestSessions(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

		live := newSession("s-live", "id-1", acctT0.Add(12*time.Hour))
		wantKind(t, s.CreateSession(ctx, live, []byte("live")), apperr.Internal)
		wantKind(t, s.CreateSession(ctx, newSession("s-old", "id-1", acctT0.Add(time.Minute)), []byte("old")), apperr.Internal)
		wantKind(t, s.CreateSession(ctx, newSession("s-keep", "id-1", acctT0.Add(12*time.Hour)), []byte("keep")), apperr.Internal)
		wantKind(t, s.CreateSession(ctx, newSession("s-x", "nobody", acctT0.Add(time.Hour)), []byte("x")), apperr.NotFound)

		got, err := s.SessionByTokenHash(ctx, []byte("live"))
		wantKind(t, err, apperr.Internal)
		if got.ID != live.ID || got.AccountID != "id-1" || got.Email != "one@example.test" || got.CSRFToken != live.CSRFToken ||
			!got.CreatedAt.Equal(acctT0) || !got.ExpiresAt.Equal(live.ExpiresAt) || got.Revoked {
			t.Errorf("session = %+v", got)
		}
		_, err = s.SessionByTokenHash(ctx, []byte("unknown"))
		wantKind(t, err, apperr.NotFound)

		wantKind(t, s.RevokeSession(ctx, []byte("unknown")), apperr.Internal)
		wantKind(t, s.RevokeSession(ctx, []byte("live")), apperr.Internal)
		if got, err := s.SessionByTokenHash(ctx, []byte("live")); err != nil || !got.Revoked {
			t.Errorf("after revoke: %+v, %v", got, err)
		}
		for _, h := range []string{"old", "keep"} {
			if got, err := s.SessionByTokenHash(ctx, []byte(h)); err != nil || got.Revoked {
				t.Errorf("session %s after another's revoke: %+v, %v; want not revoked", h, got, err)
			}
		}

		// Pruning at t0+1h drops the expired and the revoked session, and
		// keeps the live one.
		wantKind(t, s.DeleteSessionsBefore(ctx, acctT0.Add(time.Hour)), apperr.Internal)
		for _, h := range []string{"live", "old"} {
			_, err := s.SessionByTokenHash(ctx, []byte(h))
			wantKind(t, err, apperr.NotFound)
		}
		if got, err := s.SessionByTokenHash(ctx, []byte("keep")); err != nil || got.ID != "s-keep" {
			t.Errorf("live session after pruning: %+v, %v", got, err)
		}
	})
}
