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

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, clock := newService(t)
	a := testkit.MustCreateAccount(t, svc, "auth@example.test", account.TierPro)
	disabled := testkit.MustCreateAccount(t, svc, "off@example.test", account.TierFreePlus)
	if _, err := svc.UpdateAccount(ctx, disabled.Email, account.AccountUpdate{APIDisabled: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	_, good := testkit.MustCreateKey(t, svc, a.ID, account.ScopeProcessWrite)
	revokedKey, revoked := testkit.MustCreateKey(t, svc, a.ID, account.ScopeProcessWrite)
	if _, err := svc.RevokeKey(ctx, a.ID, revokedKey.ID); err != nil {
		t.Fatal(err)
	}
	_, offSecret := testkit.MustCreateKey(t, svc, disabled.ID, account.ScopeProcessWrite)
	hourKey, hour, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "hour", Scopes: []string{account.ScopeProcessWrite}, ExpiresAt: ptr(start().Add(time.Hour))})
	wantKind(t, err, apperr.Internal)

	wrongBody := good[:17] + strings.Repeat("A", 43)
	unknownPrefix := "cqa_000000000000_" + good[17:]

	tests := []struct {
		name        string
		secret      string
		at          time.Time
		wantKind    apperr.Kind
		wantAccount string
		wantOff     bool
	}{
		{name: "valid", secret: good, at: start(), wantAccount: a.ID},
		{name: "missing", secret: "", at: start(), wantKind: apperr.Unauthorized},
		{name: "malformed", secret: "Bearer nonsense", at: start(), wantKind: apperr.Unauthorized},
		{name: "truncated", secret: good[:len(good)-1], at: start(), wantKind: apperr.Unauthorized},
		{name: "upper-case prefix", secret: strings.ToUpper(good[:16]) + good[16:], at: start(), wantKind: apperr.Unauthorized},
		{name: "unknown prefix", secret: unknownPrefix, at: start(), wantKind: apperr.Unauthorized},
		{name: "known prefix, wrong secret", secret: wrongBody, at: start(), wantKind: apperr.Unauthorized},
		{name: "revoked", secret: revoked, at: start(), wantKind: apperr.APIKeyRevoked},
		{name: "one second before expiry", secret: hour, at: start().Add(time.Hour - time.Second), wantAccount: a.ID},
		{name: "at expiry", secret: hour, at: start().Add(time.Hour), wantKind: apperr.APIKeyExpired},
		{name: "after expiry", secret: hour, at: start().Add(48 * time.Hour), wantKind: apperr.APIKeyExpired},
		{name: "default lifetime ends", secret: good, at: start().Add(account.DefaultKeyTTL), wantKind: apperr.APIKeyExpired},
		{name: "disabled account still authenticates", secret: offSecret, at: start(), wantAccount: disabled.ID, wantOff: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock.Set(tt.at)
			p, err := svc.Authenticate(ctx, tt.secret)
			wantKind(t, err, tt.wantKind)
			if err != nil {
				if len(tt.secret) > 17 && strings.Contains(err.Error(), tt.secret[17:]) {
					t.Errorf("error %q contains the secret", err)
				}
				return
			}
			if p.Account.ID != tt.wantAccount || p.Account.APIDisabled != tt.wantOff || p.Key == nil {
				t.Errorf("principal %+v; want account %s disabled %v", p, tt.wantAccount, tt.wantOff)
			}
		})
	}
	clock.Set(start().Add(time.Hour))
	_, err = svc.Authenticate(ctx, hour)
	if e, _ := apperr.As(err); e == nil || e.Details["keyId"] != hourKey.ID || e.Details["expiresAt"] != "2026-02-03T05:05:06Z" {
		t.Errorf("expired key error = %v, want details keyId and expiresAt", err)
	}
}

func TestAuthenticateRecordsLastUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, clock := newService(t)
	a := testkit.MustCreateAccount(t, svc, "last@example.test", account.TierPro)
	k, secret := testkit.MustCreateKey(t, svc, a.ID, account.ScopeProcessWrite)
	if k.LastUsedAt != nil {
		t.Fatalf("new key already used at %v", k.LastUsedAt)
	}
	lastUsed := func() *time.Time {
		t.Helper()
		page, err := svc.ListKeys(ctx, a.ID, account.DefaultKeyListLimit, "")
		if err != nil || len(page.Keys) != 1 {
			t.Fatalf("ListKeys: %v %v", page, err)
		}
		return page.Keys[0].LastUsedAt
	}
	steps := []struct {
		advance time.Duration
		want    time.Time
	}{
		{0, start()},
		{30 * time.Second, start()}, // within a minute: not rewritten
		{30 * time.Second, start().Add(time.Minute)},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		p, err := svc.Authenticate(ctx, secret)
		wantKind(t, err, apperr.Internal)
		if got := lastUsed(); got == nil || !got.Equal(st.want) || !p.Key.LastUsedAt.Equal(st.want) {
			t.Errorf("step %d: last used %v (principal %v), want %v", i, got, p.Key.LastUsedAt, st.want)
		}
	}
}
