package storetest

import (
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func signInLinkScenarios() []scenario {
	return []scenario{
		{"replace expire use", linkLifecycle},
		{"single use under concurrency", linkSingleUse},
	}
}

// link returns a link of the account made at the clock's time, lasting
// 15 minutes.
func (e *env) link(accountID string) *account.SignInLink {
	return &account.SignInLink{AccountID: accountID, CreatedAt: e.now(), ExpiresAt: e.now().Add(15 * time.Minute)}
}

func linkLifecycle(e *env) {
	t, s := e.t, e.db.Accounts()
	a1, a2 := e.account(1), e.account(2)
	wantKind(t, s.CreateSignInLink(e.ctx, e.link(uuidN(99)), hash("x")), apperr.NotFound)
	first := e.link(a1.ID)
	must(t, s.CreateSignInLink(e.ctx, first, hash("first")))
	must(t, s.CreateSignInLink(e.ctx, e.link(a2.ID), hash("other")))
	got, err := s.SignInLinkByTokenHash(e.ctx, hash("first"))
	must(t, err)
	if got.AccountID != a1.ID || !sameTime(got.CreatedAt, first.CreatedAt) || !sameTime(got.ExpiresAt, first.ExpiresAt) {
		t.Errorf("link = %+v, want %+v", got, first)
	}

	// A new link replaces the account's earlier one, not another's.
	e.clock.Advance(time.Minute)
	second := e.link(a1.ID)
	must(t, s.CreateSignInLink(e.ctx, second, hash("second")))
	_, err = s.SignInLinkByTokenHash(e.ctx, hash("first"))
	wantKind(t, err, apperr.NotFound)
	_, err = s.UseSignInLink(e.ctx, hash("first"), e.now(), "$argon2id$x")
	wantKind(t, err, apperr.NotFound)
	if _, err := s.SignInLinkByTokenHash(e.ctx, hash("other")); err != nil {
		t.Errorf("another account's link: %v", err)
	}

	// At its expiry a link is dead and using it changes nothing; it is
	// still read back until a new link prunes it.
	_, err = s.UseSignInLink(e.ctx, hash("second"), second.ExpiresAt, "$argon2id$late")
	wantKind(t, err, apperr.NotFound)
	if _, h, _ := s.PasswordHash(e.ctx, a1.Email); h != "" {
		t.Errorf("an expired link set the password %q", h)
	}
	if _, err := s.SignInLinkByTokenHash(e.ctx, hash("second")); err != nil {
		t.Errorf("a link used too late: %v; want it still there", err)
	}

	// Live one second before: it sets the password, revokes the
	// sessions and is gone.
	must(t, s.CreateSession(e.ctx, e.newSession(1, a1.ID, time.Hour), hash("s1")))
	used, err := s.UseSignInLink(e.ctx, hash("second"), second.ExpiresAt.Add(-time.Second), "$argon2id$y")
	must(t, err)
	if used.ID != a1.ID || used.Email != a1.Email {
		t.Errorf("account = %+v", used)
	}
	if _, h, _ := s.PasswordHash(e.ctx, a1.Email); h != "$argon2id$y" {
		t.Errorf("hash = %q", h)
	}
	if sess, err := s.SessionByTokenHash(e.ctx, hash("s1")); err != nil || !sess.Revoked {
		t.Errorf("session after a link: %+v, %v; want revoked", sess, err)
	}
	_, err = s.UseSignInLink(e.ctx, hash("second"), second.ExpiresAt.Add(-time.Second), "$argon2id$z")
	wantKind(t, err, apperr.NotFound)

	// Making a link prunes every link expired at its creation.
	e.clock.Advance(time.Hour)
	must(t, s.CreateSignInLink(e.ctx, e.link(a1.ID), hash("third")))
	_, err = s.SignInLinkByTokenHash(e.ctx, hash("other"))
	wantKind(t, err, apperr.NotFound)
}

// linkSingleUse: of concurrent callers with one token, exactly one
// succeeds.
func linkSingleUse(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	must(t, s.CreateSignInLink(e.ctx, e.link(a.ID), hash("token")))
	const tries = 10
	errs := make([]error, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() { _, errs[i] = s.UseSignInLink(e.ctx, hash("token"), e.now(), "$argon2id$c") })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case apperr.KindOf(err) != apperr.NotFound:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d callers used the link; want 1", ok, tries)
	}
}
