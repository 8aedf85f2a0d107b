package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func TestSignInLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	wantKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)
	link := func(accountID string, at time.Time) *account.SignInLink {
		return &account.SignInLink{AccountID: accountID, CreatedAt: at, ExpiresAt: at.Add(15 * time.Minute)}
	}

	wantKind(t, s.CreateSignInLink(ctx, link("nobody", t0), []byte("x")), apperr.NotFound)
	wantKind(t, s.CreateSignInLink(ctx, link("id-1", t0), []byte("first")), apperr.Internal)
	wantKind(t, s.CreateSignInLink(ctx, link("id-2", t0), []byte("other")), apperr.Internal)
	got, err := s.SignInLinkByTokenHash(ctx, []byte("first"))
	wantKind(t, err, apperr.Internal)
	if got.AccountID != "id-1" || !got.CreatedAt.Equal(t0) || !got.ExpiresAt.Equal(t0.Add(15*time.Minute)) {
		t.Errorf("link = %+v", got)
	}

	// A new link replaces the account's earlier one, not another's.
	wantKind(t, s.CreateSignInLink(ctx, link("id-1", t0.Add(time.Minute)), []byte("second")), apperr.Internal)
	_, err = s.SignInLinkByTokenHash(ctx, []byte("first"))
	wantKind(t, err, apperr.NotFound)
	_, err = s.UseSignInLink(ctx, []byte("first"), t0.Add(time.Minute), "$argon2id$x")
	wantKind(t, err, apperr.NotFound)
	if _, err := s.SignInLinkByTokenHash(ctx, []byte("other")); err != nil {
		t.Errorf("another account's link: %v", err)
	}

	// Expired at its expiry: nothing changes.
	_, err = s.UseSignInLink(ctx, []byte("second"), t0.Add(16*time.Minute), "$argon2id$late")
	wantKind(t, err, apperr.NotFound)
	if _, hash, _ := s.PasswordHash(ctx, "one@example.test"); hash != "" {
		t.Errorf("an expired link set the password %q", hash)
	}

	// Live: it sets the password, revokes the sessions and is gone.
	wantKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", t0.Add(time.Hour)), []byte("h1")), apperr.Internal)
	a, err := s.UseSignInLink(ctx, []byte("second"), t0.Add(15*time.Minute), "$argon2id$y")
	wantKind(t, err, apperr.Internal)
	if a.ID != "id-1" {
		t.Errorf("account = %+v", a)
	}
	if _, hash, _ := s.PasswordHash(ctx, "one@example.test"); hash != "$argon2id$y" {
		t.Errorf("hash = %q", hash)
	}
	if sess, err := s.SessionByTokenHash(ctx, []byte("h1")); err != nil || !sess.Revoked {
		t.Errorf("session after a link: %+v, %v; want revoked", sess, err)
	}
	_, err = s.UseSignInLink(ctx, []byte("second"), t0.Add(15*time.Minute), "$argon2id$z")
	wantKind(t, err, apperr.NotFound)

	// Making a link prunes every expired one.
	wantKind(t, s.CreateSignInLink(ctx, link("id-1", t0.Add(time.Hour)), []byte("third")), apperr.Internal)
	_, err = s.SignInLinkByTokenHash(ctx, []byte("other"))
	wantKind(t, err, apperr.NotFound)
}
