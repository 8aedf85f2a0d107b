package postgres

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func newLink(accountID string, at time.Time) *account.SignInLink {
	return &account.SignInLink{AccountID: accountID, CreatedAt: at, ExpiresAt: at.Add(15 * time.Minute)}
}

func TestSignInLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)

	checkKind(t, s.CreateSignInLink(ctx, newLink("nobody", acctT0), []byte("x")), apperr.NotFound)
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0), []byte("first")), apperr.Internal)
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-2", acctT0), []byte("other")), apperr.Internal)
	got, err := s.SignInLinkByTokenHash(ctx, []byte("first"))
	checkKind(t, err, apperr.Internal)
	if got.AccountID != "id-1" || got.CreatedAt != acctT0 || got.ExpiresAt != acctT0.Add(15*time.Minute) {
		t.Errorf("link = %+v", got)
	}

	// A new link replaces the account's earlier one, not another's.
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0.Add(time.Minute)), []byte("second")), apperr.Internal)
	_, err = s.SignInLinkByTokenHash(ctx, []byte("first"))
	checkKind(t, err, apperr.NotFound)
	_, err = s.UseSignInLink(ctx, []byte("first"), acctT0.Add(time.Minute), "$argon2id$x")
	checkKind(t, err, apperr.NotFound)
	if _, err := s.SignInLinkByTokenHash(ctx, []byte("other")); err != nil {
		t.Errorf("another account's link: %v", err)
	}

	// Expired at its expiry: nothing changes.
	_, err = s.UseSignInLink(ctx, []byte("second"), acctT0.Add(16*time.Minute), "$argon2id$late")
	checkKind(t, err, apperr.NotFound)
	if _, hash, _ := s.PasswordHash(ctx, "one@example.test"); hash != "" {
		t.Errorf("an expired link set the password %q", hash)
	}

	// Live: it sets the password, revokes the sessions and is gone.
	checkKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", acctT0.Add(time.Hour)), []byte("h1")), apperr.Internal)
	a, err := s.UseSignInLink(ctx, []byte("second"), acctT0.Add(15*time.Minute), "$argon2id$y")
	checkKind(t, err, apperr.Internal)
	if a.ID != "id-1" {
		t.Errorf("account = %+v", a)
	}
	if _, hash, _ := s.PasswordHash(ctx, "one@example.test"); hash != "$argon2id$y" {
		t.Errorf("hash = %q", hash)
	}
	if sess, err := s.SessionByTokenHash(ctx, []byte("h1")); err != nil || !sess.Revoked {
		t.Errorf("session after a link: %+v, %v; want revoked", sess, err)
	}
	_, err = s.UseSignInLink(ctx, []byte("second"), acctT0.Add(15*time.Minute), "$argon2id$z")
	checkKind(t, err, apperr.NotFound)

	// Making a link prunes every expired one.
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0.Add(time.Hour)), []byte("third")), apperr.Internal)
	_, err = s.SignInLinkByTokenHash(ctx, []byte("other"))
	checkKind(t, err, apperr.NotFound)
}

// TestUseSignInLinkRace: one link used from several nodes at once
// succeeds once.
func TestUseSignInLinkRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	s := nodes[0].Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0), []byte("tok")), apperr.Internal)
	errs := make([]error, 12)
	var wg sync.WaitGroup
	for i := range errs {
		n := nodes[i%len(nodes)].Accounts()
		wg.Go(func() { _, errs[i] = n.UseSignInLink(ctx, []byte("tok"), acctT0.Add(time.Minute), "$argon2id$w") })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch apperr.KindOf(err) {
		case apperr.Internal:
			if err != nil {
				t.Errorf("unexpected error: %v", err)
				continue
			}
			ok++
		case apperr.NotFound:
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d callers used the link, want 1", ok)
	}
}
