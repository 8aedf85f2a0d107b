package sqlstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestSignInLinks: a link reads back by its token hash; a new one
// replaces the account's earlier one, not another's; one used at or
// after its expiry changes nothing; a live one sets the password,
// revokes the account's sessions and is gone; making a link prunes every
// expired one.
func TestSignInLinks(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
		wantKind(t, s.CreateAccount(ctx, newAccount("id-2", "two@example.test")), apperr.Internal)

		wantKind(t, s.CreateSignInLink(ctx, newLink("nobody", acctT0), []byte("x")), apperr.NotFound)
		wantKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0), []byte("first")), apperr.Internal)
		wantKind(t, s.CreateSignInLink(ctx, newLink("id-2", acctT0), []byte("other")), apperr.Internal)
		got, err := s.SignInLinkByTokenHash(ctx, []byte("first"))
		wantKind(t, err, apperr.Internal)
		if got.AccountID != "id-1" || !got.CreatedAt.Equal(acctT0) || !got.ExpiresAt.Equal(acctT0.Add(15*time.Minute)) {
			t.Errorf("link = %+v", got)
		}
		_, err = s.SignInLinkByTokenHash(ctx, []byte("x"))
		wantKind(t, err, apperr.NotFound)

		// A new link replaces the account's earlier one, not another's.
		wantKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0.Add(time.Minute)), []byte("second")), apperr.Internal)
		_, err = s.SignInLinkByTokenHash(ctx, []byte("first"))
		wantKind(t, err, apperr.NotFound)
		_, err = s.UseSignInLink(ctx, []byte("first"), acctT0.Add(time.Minute), "$argon2id$x")
		wantKind(t, err, apperr.NotFound)
		if _, err := s.SignInLinkByTokenHash(ctx, []byte("other")); err != nil {
			t.Errorf("another account's link: %v", err)
		}

		// Expired at its expiry: nothing changes.
		_, err = s.UseSignInLink(ctx, []byte("second"), acctT0.Add(16*time.Minute), "$argon2id$late")
		wantKind(t, err, apperr.NotFound)
		if _, hash, err := s.PasswordHash(ctx, "one@example.test"); err != nil || hash != "" {
			t.Errorf("an expired link set the password %q (%v)", hash, err)
		}
		if _, err := s.SignInLinkByTokenHash(ctx, []byte("second")); err != nil {
			t.Errorf("a refused use consumed the link: %v", err)
		}

		// Live: it sets the password, revokes the sessions and is gone.
		wantKind(t, s.CreateSession(ctx, newSession("s-1", "id-1", acctT0.Add(time.Hour)), []byte("h1")), apperr.Internal)
		a, err := s.UseSignInLink(ctx, []byte("second"), acctT0.Add(15*time.Minute), "$argon2id$y")
		wantKind(t, err, apperr.Internal)
		if a.ID != "id-1" {
			t.Errorf("account = %+v", a)
		}
		if _, hash, err := s.PasswordHash(ctx, "one@example.test"); err != nil || hash != "$argon2id$y" {
			t.Errorf("hash = %q, %v", hash, err)
		}
		if sess, err := s.SessionByTokenHash(ctx, []byte("h1")); err != nil || !sess.Revoked {
			t.Errorf("session after a link: %+v, %v; want revoked", sess, err)
		}
		_, err = s.UseSignInLink(ctx, []byte("second"), acctT0.Add(15*time.Minute), "$argon2id$z")
		wantKind(t, err, apperr.NotFound)

		// Making a link prunes every expired one.
		wantKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0.Add(time.Hour)), []byte("third")), apperr.Internal)
		_, err = s.SignInLinkByTokenHash(ctx, []byte("other"))
		wantKind(t, err, apperr.NotFound)
	})
}

// TestUseSignInLinkRace: one link used from several nodes at once
// (handles on one SQLite file, pools on one PostgreSQL database)
// succeeds once.
func TestUseSignInLinkRace(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 3, nil)
			s := nodes[0].Accounts()
			wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
			wantKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0), []byte("tok")), apperr.Internal)
			errs := make([]error, 12)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range errs {
				n := nodes[i%len(nodes)].Accounts()
				wg.Go(func() {
					<-start
					_, errs[i] = n.UseSignInLink(ctx, []byte("tok"), acctT0.Add(time.Minute), "$argon2id$w")
				})
			}
			close(start)
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
			if _, hash, err := s.PasswordHash(ctx, "one@example.test"); err != nil || hash != "$argon2id$w" {
				t.Errorf("hash = %q, %v", hash, err)
			}
		})
	}
}
