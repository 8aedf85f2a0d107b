package account_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

// linkFixture is one account with a password, a session opened with it,
// and a fresh service over a real database.
type linkFixture struct {
	svc     *account.Service
	clock   *testkit.Clock
	account *account.Account
	// oldSession is the token of a session opened before any link.
	oldSession string
}

func newLinkFixture(t *testing.T) *linkFixture {
	t.Helper()
	svc, clock := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "owner@example.test", account.TierPro)
	if _, err := svc.SetPassword(ctx, a.Email, "the old password"); err != nil {
		t.Fatal(err)
	}
	_, old, err := svc.Login(ctx, a.Email, "the old password")
	if err != nil {
		t.Fatal(err)
	}
	return &linkFixture{svc: svc, clock: clock, account: a, oldSession: old}
}

func (f *linkFixture) link(t *testing.T) string {
	t.Helper()
	token, _, err := f.svc.CreateSignInLink(context.Background(), f.account.ID)
	if err != nil {
		t.Fatalf("create link: %v", err)
	}
	return token
}

func TestCreateSignInLink(t *testing.T) {
	t.Parallel()
	f := newLinkFixture(t)
	token, link, err := f.svc.CreateSignInLink(context.Background(), f.account.ID)
	wantKind(t, err, apperr.Internal)
	if !regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`).MatchString(token) {
		t.Errorf("token %q is not 32 bytes of base64url", token)
	}
	if link.AccountID != f.account.ID || !link.CreatedAt.Equal(start()) || !link.ExpiresAt.Equal(start().Add(15*time.Minute)) {
		t.Errorf("link = %+v; want the account's, valid 15 minutes from the clock's now", link)
	}
	if again := f.link(t); again == token {
		t.Error("two links share a token")
	}
	_, _, err = f.svc.CreateSignInLink(context.Background(), "no-such-account")
	wantKind(t, err, apperr.NotFound)
}

// TestUseSignInLink: each case makes links on a fresh account and uses
// one; the link must set the password, open a session and sign the
// account out elsewhere, once.
func TestUseSignInLink(t *testing.T) {
	t.Parallel()
	const newPassword = "a brand new password"
	tests := []struct {
		name string
		// token makes the links of the case and returns the one to use.
		token     func(t *testing.T, f *linkFixture) string
		password  string
		wantKind  apperr.Kind
		wantField string
	}{
		{"fresh link", func(t *testing.T, f *linkFixture) string { return f.link(t) }, newPassword, apperr.Internal, ""},
		{"a second before expiry", func(t *testing.T, f *linkFixture) string {
			tok := f.link(t)
			f.clock.Advance(account.SignInLinkTTL - time.Second)
			return tok
		}, newPassword, apperr.Internal, ""},
		{"at expiry", func(t *testing.T, f *linkFixture) string {
			tok := f.link(t)
			f.clock.Advance(account.SignInLinkTTL)
			return tok
		}, newPassword, apperr.Unauthorized, ""},
		{"used before", func(t *testing.T, f *linkFixture) string {
			tok := f.link(t)
			if _, _, err := f.svc.UseSignInLink(context.Background(), tok, "the first use's password"); err != nil {
				t.Fatal(err)
			}
			return tok
		}, newPassword, apperr.Unauthorized, ""},
		{"replaced by a newer link", func(t *testing.T, f *linkFixture) string {
			tok := f.link(t)
			f.link(t)
			return tok
		}, newPassword, apperr.Unauthorized, ""},
		{"the newer link", func(t *testing.T, f *linkFixture) string {
			f.link(t)
			return f.link(t)
		}, newPassword, apperr.Internal, ""},
		{"unknown token", func(t *testing.T, f *linkFixture) string {
			f.link(t)
			return strings.Repeat("A", 43)
		}, newPassword, apperr.Unauthorized, ""},
		{"wrong length", func(t *testing.T, f *linkFixture) string { return f.link(t) + "A" }, newPassword, apperr.Unauthorized, ""},
		{"empty", func(t *testing.T, f *linkFixture) string { return "" }, newPassword, apperr.Unauthorized, ""},
		{"password too short", func(t *testing.T, f *linkFixture) string { return f.link(t) }, "123456789", apperr.BadRequest, "password"},
		{"password too long", func(t *testing.T, f *linkFixture) string { return f.link(t) }, strings.Repeat("p", account.MaxPasswordLen+1), apperr.BadRequest, "password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newLinkFixture(t)
			ctx := context.Background()
			token := tt.token(t, f)
			sess, sessToken, err := f.svc.UseSignInLink(ctx, token, tt.password)
			wantKind(t, err, tt.wantKind)
			if tt.wantField != "" && detail(err, "field") != tt.wantField {
				t.Errorf("details.field = %v, want %s", detail(err, "field"), tt.wantField)
			}
			if tt.wantKind == apperr.Unauthorized {
				e, _ := apperr.As(err)
				if !strings.Contains(e.Message, "captionqa owner link") || !strings.Contains(e.Message, "unknown, already used or expired") {
					t.Errorf("message %q must be the one message and say how to get a new link", e.Message)
				}
			}
			if tt.wantKind != apperr.Internal && tt.name != "used before" {
				// Nothing changed: the old password and session still work.
				if _, _, err := f.svc.Login(ctx, f.account.Email, "the old password"); err != nil {
					t.Errorf("old password after a refused link: %v", err)
				}
				if _, _, err := f.svc.SessionPrincipal(ctx, f.oldSession); err != nil {
					t.Errorf("old session after a refused link: %v", err)
				}
			}
			if tt.wantKind != apperr.Internal {
				return
			}
			if sess.AccountID != f.account.ID || sess.Email != f.account.Email || len(sessToken) != 43 ||
				!sess.ExpiresAt.Equal(f.clock.Now().Add(account.DefaultSessionTTL)) {
				t.Errorf("session %+v, token %q", sess, sessToken)
			}
			if p, csrf, err := f.svc.SessionPrincipal(ctx, sessToken); err != nil || p.Account.ID != f.account.ID || csrf != sess.CSRFToken {
				t.Errorf("the new session: %v, %v", p, err)
			}
			if _, _, err := f.svc.Login(ctx, f.account.Email, tt.password); err != nil {
				t.Errorf("the new password: %v", err)
			}
			_, _, err = f.svc.Login(ctx, f.account.Email, "the old password")
			wantKind(t, err, apperr.Unauthorized)
			_, _, err = f.svc.SessionPrincipal(ctx, f.oldSession)
			wantKind(t, err, apperr.Unauthorized) // signed out elsewhere
			_, _, err = f.svc.UseSignInLink(ctx, token, tt.password)
			wantKind(t, err, apperr.Unauthorized) // single use
		})
	}
}

// TestSignInLinkBadPasswordKeepsLink: a refused password does not use up
// the link, which then works with a good one.
func TestSignInLinkBadPasswordKeepsLink(t *testing.T) {
	t.Parallel()
	f := newLinkFixture(t)
	ctx := context.Background()
	token := f.link(t)
	for _, pw := range []string{"", "short", strings.Repeat("x", account.MaxPasswordLen+1)} {
		_, _, err := f.svc.UseSignInLink(ctx, token, pw)
		wantKind(t, err, apperr.BadRequest)
	}
	_, _, err := f.svc.UseSignInLink(ctx, token, "good enough password")
	wantKind(t, err, apperr.Internal)
}

// TestSignInLinkSingleUseUnderConcurrency: of many uses of one token at
// once, exactly one succeeds.
func TestSignInLinkSingleUseUnderConcurrency(t *testing.T) {
	t.Parallel()
	f := newLinkFixture(t)
	token := f.link(t)
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := f.svc.UseSignInLink(context.Background(), token, "racing for the link")
			mu.Lock()
			defer mu.Unlock()
			switch apperr.KindOf(err) {
			case apperr.Internal:
				if err == nil {
					ok++
				}
			case apperr.Unauthorized:
				refused++
			}
		}()
	}
	wg.Wait()
	if ok != 1 || refused != n-1 {
		t.Errorf("%d succeeded and %d were refused; want 1 and %d", ok, refused, n-1)
	}
}

func TestOwner(t *testing.T) {
	t.Parallel()
	svc, clock := newService(t)
	ctx := context.Background()
	_, err := svc.Owner(ctx)
	wantKind(t, err, apperr.NotFound)
	first := testkit.MustCreateAccount(t, svc, "first@example.test", account.TierPro)
	clock.Advance(time.Second)
	testkit.MustCreateAccount(t, svc, "second@example.test", account.TierPro)
	if got, err := svc.Owner(ctx); err != nil || got.ID != first.ID {
		t.Errorf("Owner = %v, %v; want the oldest account", got, err)
	}
}
