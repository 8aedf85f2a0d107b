package account_test

import (
	"context"
	"encoding/base64"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func TestCreateKey(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	owner := testkit.MustCreateAccount(t, svc, "keys@example.test", account.TierPro)
	secretRE := regexp.MustCompile(`^cqa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$`)
	tests := []struct {
		name        string
		accountID   string
		in          account.NewKey
		wantKind    apperr.Kind
		wantField   string
		wantScopes  []string
		wantExpires time.Time
	}{
		{name: "default lifetime", in: account.NewKey{Name: "ci", Scopes: []string{account.ScopeProcessWrite}},
			wantScopes: []string{account.ScopeProcessWrite}, wantExpires: start().Add(account.DefaultKeyTTL)},
		{name: "scopes sorted and deduplicated", in: account.NewKey{Name: " ci ", Scopes: []string{account.ScopeUsageRead, account.ScopeKeysRead, account.ScopeUsageRead}},
			wantScopes: []string{account.ScopeKeysRead, account.ScopeUsageRead}, wantExpires: start().Add(account.DefaultKeyTTL)},
		{name: "explicit expiry", in: account.NewKey{Name: "short", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(start().Add(time.Hour + 500*time.Millisecond))},
			wantScopes: []string{account.ScopeUsageRead}, wantExpires: start().Add(time.Hour)},
		{name: "no scopes", in: account.NewKey{Name: "legacy"}, wantKind: apperr.BadRequest, wantField: "scopes"},
		{name: "empty scopes", in: account.NewKey{Name: "legacy", Scopes: []string{}}, wantKind: apperr.BadRequest, wantField: "scopes"},
		{name: "empty name", in: account.NewKey{Name: "  "}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "long name", in: account.NewKey{Name: strings.Repeat("n", 101)}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "NUL in name", in: account.NewKey{Name: "a\x00b", Scopes: []string{account.ScopeUsageRead}}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "terminal escape in name", in: account.NewKey{Name: "ok\x1b[2J", Scopes: []string{account.ScopeUsageRead}}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "bidi override in name", in: account.NewKey{Name: "key\u202etxt.exe", Scopes: []string{account.ScopeUsageRead}}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "bidi isolate in name", in: account.NewKey{Name: "\u2067key", Scopes: []string{account.ScopeUsageRead}}, wantKind: apperr.BadRequest, wantField: "name"},
		{name: "name in another script", in: account.NewKey{Name: "字幕 ترجمة", Scopes: []string{account.ScopeUsageRead}},
			wantScopes: []string{account.ScopeUsageRead}, wantExpires: start().Add(account.DefaultKeyTTL)},
		{name: "expiry at the maximum lifetime", in: account.NewKey{Name: "year", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(start().Add(account.MaxKeyLifetime))},
			wantScopes: []string{account.ScopeUsageRead}, wantExpires: start().Add(account.MaxKeyLifetime)},
		{name: "expiry past the maximum lifetime", in: account.NewKey{Name: "x", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(start().Add(account.MaxKeyLifetime + time.Second))}, wantKind: apperr.BadRequest, wantField: "expiresAt"},
		{name: "expiry in 9999", in: account.NewKey{Name: "x", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))}, wantKind: apperr.BadRequest, wantField: "expiresAt"},
		{name: "unknown scope", in: account.NewKey{Name: "x", Scopes: []string{"admin:all"}}, wantKind: apperr.BadRequest, wantField: "scopes"},
		{name: "expiry now", in: account.NewKey{Name: "x", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(start())}, wantKind: apperr.BadRequest, wantField: "expiresAt"},
		{name: "expiry past", in: account.NewKey{Name: "x", Scopes: []string{account.ScopeUsageRead}, ExpiresAt: ptr(start().Add(-time.Hour))}, wantKind: apperr.BadRequest, wantField: "expiresAt"},
		{name: "unknown account", accountID: "00000000-0000-0000-0000-000000000000", in: account.NewKey{Name: "x", Scopes: []string{account.ScopeUsageRead}}, wantKind: apperr.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id := tt.accountID
			if id == "" {
				id = owner.ID
			}
			k, secret, err := svc.CreateKey(context.Background(), id, tt.in)
			wantKind(t, err, tt.wantKind)
			if tt.wantKind != apperr.Internal {
				if tt.wantField != "" && detail(err, "field") != tt.wantField {
					t.Errorf("details.field = %v, want %s", detail(err, "field"), tt.wantField)
				}
				return
			}
			if !secretRE.MatchString(secret) || !strings.HasPrefix(secret, k.Prefix+"_") || len(k.Prefix) != 16 {
				t.Errorf("secret %q / prefix %q do not follow the format", secret, k.Prefix)
			}
			if k.Name != strings.TrimSpace(tt.in.Name) || !slices.Equal(k.Scopes, tt.wantScopes) ||
				!k.ExpiresAt.Equal(tt.wantExpires) || !k.CreatedAt.Equal(start()) || k.AccountID != owner.ID {
				t.Errorf("key = %+v; want scopes %v expiring %v", k, tt.wantScopes, tt.wantExpires)
			}
		})
	}
}

func TestCreateKeyNamesUnknownScope(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	a := testkit.MustCreateAccount(t, svc, "s@example.test", account.TierPro)
	_, _, err := svc.CreateKey(context.Background(), a.ID, account.NewKey{Name: "x", Scopes: []string{"keys:read", "root"}})
	wantKind(t, err, apperr.BadRequest)
	if e, _ := apperr.As(err); detail(err, "value") != "root" || !strings.Contains(e.Message, `"root"`) {
		t.Errorf("error %v does not name the scope", err)
	}
}

func TestSecretsAreUnique(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	a := testkit.MustCreateAccount(t, svc, "u@example.test", account.TierPro)
	seen := map[string]bool{}
	for range 20 {
		k, secret := testkit.MustCreateKey(t, svc, a.ID, account.ScopeKeysRead)
		if seen[secret] || seen[k.Prefix] {
			t.Fatalf("secret or prefix repeated")
		}
		seen[secret], seen[k.Prefix] = true, true
	}
}

func TestListKeysMasked(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "m@example.test", account.TierPro)
	other := testkit.MustCreateAccount(t, svc, "o@example.test", account.TierPro)
	secrets := map[string]string{}
	for _, scopes := range [][]string{{account.ScopeKeysRead}, {account.ScopeExportsRead}, {account.ScopeProcessWrite, account.ScopeUsageRead}} {
		k, secret := testkit.MustCreateKey(t, svc, a.ID, scopes...)
		secrets[k.ID] = secret
	}
	testkit.MustCreateKey(t, svc, other.ID, account.ScopeKeysRead)

	page, err := svc.ListKeys(ctx, a.ID, account.DefaultKeyListLimit, "")
	wantKind(t, err, apperr.Internal)
	list := page.Keys
	if len(list) != 3 {
		t.Fatalf("ListKeys: %d keys, want 3 (the other account's key excluded)", len(list))
	}
	maskRE := regexp.MustCompile(`^cqa_[0-9a-f]{6}…$`)
	for _, k := range list {
		secret, ok := secrets[k.ID]
		if !ok {
			t.Fatalf("listed unknown key %s", k.ID)
		}
		m := account.Masked(&k)
		body := secret[len(k.Prefix)+1:]
		if !maskRE.MatchString(m) || !strings.HasPrefix(k.Prefix, strings.TrimSuffix(m, "…")) {
			t.Errorf("Masked = %q, want cqa_ and six hex characters of %s, then …", m, k.Prefix)
		}
		if strings.Contains(m, body) || strings.Contains(m, k.Prefix) || strings.Contains(m, secret) {
			t.Errorf("Masked %q reveals the secret or the whole prefix", m)
		}
		for _, field := range []string{k.ID, k.Name, k.Prefix, strings.Join(k.Scopes, ",")} {
			if strings.Contains(field, body) {
				t.Errorf("listed key field %q contains the secret", field)
			}
		}
	}
}

// TestListKeysRefusesLimitAndCursor: a limit out of range and a cursor
// the service did not issue are the caller's error, naming the field.
func TestListKeysRefusesLimitAndCursor(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "c@example.test", account.TierPro)
	b64 := base64.RawURLEncoding.EncodeToString
	tests := []struct {
		name   string
		limit  int
		cursor string
		field  string
	}{
		{"limit 0", 0, "", "limit"},
		{"limit above the most", account.MaxKeyListLimit + 1, "", "limit"},
		{"negative limit", -1, "", "limit"},
		{"not base64url", 10, "%%", "cursor"},
		{"another listing's cursor", 10, b64([]byte("p1.1700000000.00000000-0000-4000-8000-000000000001")), "cursor"},
		{"seq not a number", 10, b64([]byte("k1.1700000000.x")), "cursor"},
		{"negative seq", 10, b64([]byte("k1.1700000000.-1")), "cursor"},
		{"time not a number", 10, b64([]byte("k1.soon.1")), "cursor"},
		{"too long", 10, strings.Repeat("a", 200), "cursor"},
	}
	for _, tt := range tests {
		_, err := svc.ListKeys(ctx, a.ID, tt.limit, tt.cursor)
		if apperr.KindOf(err) != apperr.BadRequest || detail(err, "field") != tt.field {
			t.Errorf("%s: %v; want bad_request naming %s", tt.name, err, tt.field)
		}
	}
	if _, err := svc.ListKeys(ctx, a.ID, 1, b64([]byte("k1.1700000000.7"))); err != nil {
		t.Errorf("a well-formed cursor: %v", err)
	}
}

func TestRevokeKey(t *testing.T) {
	t.Parallel()
	svc, clock := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "r@example.test", account.TierPro)
	other := testkit.MustCreateAccount(t, svc, "other@example.test", account.TierPro)
	k, _ := testkit.MustCreateKey(t, svc, a.ID, account.ScopeKeysWrite)
	tests := []struct {
		name, accountID, keyID string
		wantKind               apperr.Kind
	}{
		{"another account's key", other.ID, k.ID, apperr.NotFound},
		{"unknown key", a.ID, "00000000-0000-0000-0000-000000000000", apperr.NotFound},
		{"own key", a.ID, k.ID, apperr.Internal},
		{"again", a.ID, k.ID, apperr.Internal},
	}
	revokedAt := start().Add(time.Minute)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "own key" {
				clock.Set(revokedAt)
			} else {
				clock.Advance(time.Hour)
			}
			got, err := svc.RevokeKey(ctx, tt.accountID, tt.keyID)
			wantKind(t, err, tt.wantKind)
			if err == nil && (got.ID != k.ID || got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt)) {
				t.Errorf("RevokeKey = %+v, want key %s revoked at %v", got, k.ID, revokedAt)
			}
		})
	}
	page, err := svc.ListKeys(ctx, a.ID, account.DefaultKeyListLimit, "")
	wantKind(t, err, apperr.Internal)
	list := page.Keys
	if len(list) != 1 || list[0].RevokedAt == nil || !list[0].RevokedAt.Equal(revokedAt) {
		t.Errorf("after revoking: %+v, want revoked at %v", list, revokedAt)
	}
}

func TestLegacyKeyCarriesProcessWriteOnly(t *testing.T) {
	t.Parallel()
	db := testkit.MustOpenDB(t)
	svc := account.NewService(db.Accounts(), account.Options{Now: testkit.NewClock(start()).Now})
	a := testkit.MustCreateAccount(t, svc, "legacy@example.test", account.TierPro)
	_, secret := testkit.MustCreateLegacyKey(t, db.Accounts(), a.ID, start())
	p, err := svc.Authenticate(context.Background(), secret)
	wantKind(t, err, apperr.Internal)
	for _, s := range account.Scopes() {
		if got, want := p.Key.HasScope(s), s == account.ScopeProcessWrite; got != want {
			t.Errorf("legacy key HasScope(%s) = %v, want %v", s, got, want)
		}
	}
}
