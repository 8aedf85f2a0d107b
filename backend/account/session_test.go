package account_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

const goodPassword = "correct horse battery"

func TestSetPassword(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	testkit.MustCreateAccount(t, svc, "pw@example.test", account.TierPro)
	tests := []struct {
		name, email, password string
		wantKind              apperr.Kind
		wantField             string
	}{
		{"nine characters", "pw@example.test", "123456789", apperr.BadRequest, "password"},
		{"empty", "pw@example.test", "", apperr.BadRequest, "password"},
		{"too long", "pw@example.test", strings.Repeat("p", account.MaxPasswordLen+1), apperr.BadRequest, "password"},
		{"bad email", "nobody", goodPassword, apperr.BadRequest, "email"},
		{"unknown account", "nobody@example.test", goodPassword, apperr.NotFound, ""},
		{"ten runes", "pw@example.test", "éééééééééé", apperr.Internal, ""},
		{"email normalised", " PW@Example.test ", goodPassword, apperr.Internal, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.SetPassword(context.Background(), tt.email, tt.password)
			wantKind(t, err, tt.wantKind)
			if tt.wantField != "" && detail(err, "field") != tt.wantField {
				t.Errorf("details.field = %v, want %s", detail(err, "field"), tt.wantField)
			}
		})
	}
}

func TestStoredPasswordIsArgon2idWithRandomSalt(t *testing.T) {
	t.Parallel()
	db := testkit.MustOpenDB(t)
	svc := account.NewService(db.Accounts(), account.Options{})
	ctx := context.Background()
	testkit.MustCreateAccount(t, svc, "a@example.test", account.TierPro)
	testkit.MustCreateAccount(t, svc, "b@example.test", account.TierPro)
	var hashes []string
	for _, email := range []string{"a@example.test", "b@example.test"} {
		if _, err := svc.SetPassword(ctx, email, goodPassword); err != nil {
			t.Fatal(err)
		}
		_, h, err := db.Accounts().PasswordHash(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h)
	}
	for _, h := range hashes {
		if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, goodPassword) || len(strings.Split(h, "$")) != 6 {
			t.Errorf("stored hash %q is not an argon2id PHC string", h)
		}
	}
	if hashes[0] == hashes[1] {
		t.Error("the same password hashed twice gives the same string: the salt is not random")
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "login@example.test", account.TierPro)
	testkit.MustCreateAccount(t, svc, "nopw@example.test", account.TierPro)
	if _, err := svc.SetPassword(ctx, a.Email, goodPassword); err != nil {
		t.Fatal(err)
	}
	failures := []struct{ name, email, password string }{
		{"wrong password", a.Email, goodPassword + "!"},
		{"unknown email", "nobody@example.test", goodPassword},
		{"account without a password", "nopw@example.test", goodPassword},
		{"malformed email", "nobody", goodPassword},
		{"empty", "", ""},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			_, _, err := svc.Login(ctx, f.email, f.password)
			wantKind(t, err, apperr.Unauthorized)
			if e, _ := apperr.As(err); e.Message != "invalid email or password" {
				t.Errorf("message = %q; want the one generic message", e.Message)
			}
		})
	}

	sess, token, err := svc.Login(ctx, " LOGIN@example.test", goodPassword)
	wantKind(t, err, apperr.Internal)
	if len(token) != 43 || sess.AccountID != a.ID || sess.Email != a.Email || len(sess.CSRFToken) != 43 ||
		sess.CSRFToken == token || !sess.ExpiresAt.Equal(start().Add(account.DefaultSessionTTL)) {
		t.Errorf("session %+v, token %q", sess, token)
	}
	p, csrf, err := svc.SessionPrincipal(ctx, token)
	wantKind(t, err, apperr.Internal)
	if p.Account.ID != a.ID || p.Key != nil || csrf != sess.CSRFToken {
		t.Errorf("principal %+v key %v csrf %q", p.Account, p.Key, csrf)
	}
}

func TestSessionLifetime(t *testing.T) {
	t.Parallel()
	svc, clock := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "life@example.test", account.TierPro)
	if _, err := svc.SetPassword(ctx, a.Email, goodPassword); err != nil {
		t.Fatal(err)
	}
	login := func() string {
		t.Helper()
		_, token, err := svc.Login(ctx, a.Email, goodPassword)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	alive := func(token string) apperr.Kind {
		_, _, err := svc.SessionPrincipal(ctx, token)
		return apperr.KindOf(err)
	}

	expiring := login()
	clock.Advance(account.DefaultSessionTTL - time.Second)
	if k := alive(expiring); k != apperr.Internal {
		t.Errorf("a second before expiry: %s", k.Code())
	}
	clock.Advance(time.Second)
	if k := alive(expiring); k != apperr.Unauthorized {
		t.Errorf("at expiry: %s, want unauthorized", k.Code())
	}

	out := login()
	wantKind(t, svc.Logout(ctx, out), apperr.Internal)
	wantKind(t, svc.Logout(ctx, out), apperr.Internal) // twice is fine
	if k := alive(out); k != apperr.Unauthorized {
		t.Errorf("after logout: %s, want unauthorized", k.Code())
	}

	other := login()
	if _, err := svc.SetPassword(ctx, a.Email, "another long password"); err != nil {
		t.Fatal(err)
	}
	if k := alive(other); k != apperr.Unauthorized {
		t.Errorf("after a password change: %s, want unauthorized", k.Code())
	}
	for _, bad := range []string{"", "nonsense", strings.Repeat("x", 500)} {
		if k := alive(bad); k != apperr.Unauthorized {
			t.Errorf("token %.10q: %s, want unauthorized", bad, k.Code())
		}
	}
}
