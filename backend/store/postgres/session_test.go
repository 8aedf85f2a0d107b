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

// TestPasswordHashRevokesOwnSessions: setting an account's password
// signs that account out everywhere, and no other.
func TestPasswordHashRevokesOwnSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", acctT0.Add(time.Hour)), []byte("h1")), apperr.Internal)
	checkKind(t, s.CreateSession(ctx, newSession("s-2", "id-2", acctT0.Add(time.Hour)), []byte("h2")), apperr.Internal)
	_, err := s.SetPasswordHash(ctx, "one@example.test", "$argon2id$x")
	checkKind(t, err, apperr.Internal)
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
}
