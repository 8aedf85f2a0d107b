package sqlite_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

var t0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func newAccount(id, email string) *account.Account {
	return &account.Account{ID: id, Email: email, Tier: account.TierPro,
		Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: t0}
}

func newKey(id, accountID, prefix string, scopes ...string) *account.Key {
	return &account.Key{ID: id, AccountID: accountID, Name: "k-" + id, Prefix: prefix, Scopes: scopes,
		CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
}

func TestAccountStoreCreateAndRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	a := newAccount("id-1", "one@example.test")
	a.APIDisabled = true
	wantKind(t, s.CreateAccount(ctx, a), apperr.Internal)
	b := newAccount("id-2", "two@example.test")
	b.Features = nil
	b.CreatedAt = t0.Add(-time.Hour) // older: listed first
	wantKind(t, s.CreateAccount(ctx, b), apperr.Internal)

	tests := []struct {
		name     string
		get      func() (*account.Account, error)
		wantKind apperr.Kind
		wantID   string
	}{
		{"by id", func() (*account.Account, error) { return s.AccountByID(ctx, "id-1") }, apperr.Internal, "id-1"},
		{"by email", func() (*account.Account, error) { return s.AccountByEmail(ctx, "two@example.test") }, apperr.Internal, "id-2"},
		{"unknown id", func() (*account.Account, error) { return s.AccountByID(ctx, "nope") }, apperr.NotFound, ""},
		{"unknown email", func() (*account.Account, error) { return s.AccountByEmail(ctx, "x@example.test") }, apperr.NotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.get()
			wantKind(t, err, tt.wantKind)
			if tt.wantID != "" && got.ID != tt.wantID {
				t.Errorf("got account %s, want %s", got.ID, tt.wantID)
			}
		})
	}

	got, err := s.AccountByID(ctx, "id-1")
	wantKind(t, err, apperr.Internal)
	if got.Email != a.Email || got.Tier != a.Tier || !slices.Equal(got.Features, a.Features) ||
		!got.APIDisabled || got.DailyCap != 50 || !got.CreatedAt.Equal(t0) {
		t.Errorf("round trip: got %+v, want %+v", got, a)
	}
	list, err := s.ListAccounts(ctx)
	wantKind(t, err, apperr.Internal)
	if len(list) != 2 || list[0].ID != "id-2" || list[1].ID != "id-1" {
		t.Errorf("ListAccounts = %+v, want id-2 then id-1 (oldest first)", list)
	}
	if list[0].Features == nil {
		t.Error("empty features decoded as nil; want an empty list")
	}
}

func TestAccountStoreConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	tests := []struct {
		name string
		a    *account.Account
	}{
		{"same email", newAccount("id-2", "one@example.test")},
		{"same id", newAccount("id-1", "other@example.test")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantKind(t, s.CreateAccount(ctx, tt.a), apperr.Conflict)
		})
	}
}

func TestAccountStoreUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

	got, err := s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error {
		a.DailyCap, a.APIDisabled, a.Tier = 77, true, account.TierFreePlus
		return nil
	})
	wantKind(t, err, apperr.Internal)
	reread, _ := s.AccountByID(ctx, "id-1")
	for _, a := range []*account.Account{got, reread} {
		if a.DailyCap != 77 || !a.APIDisabled || a.Tier != account.TierFreePlus {
			t.Errorf("after update: %+v", a)
		}
	}

	refuse := apperr.New(apperr.BadRequest, "no")
	_, err = s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.DailyCap = 1; return refuse })
	wantKind(t, err, apperr.BadRequest)
	if reread, _ := s.AccountByID(ctx, "id-1"); reread.DailyCap != 77 {
		t.Errorf("refused update saved: cap %d", reread.DailyCap)
	}
	_, err = s.UpdateAccount(ctx, "ghost@example.test", func(*account.Account) error { return nil })
	wantKind(t, err, apperr.NotFound)
}

func TestAccountStoreEnsureFirstAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	first, created, err := s.EnsureFirstAccount(ctx, newAccount("id-1", "one@example.test"), newKey("k1", "id-1", "cqa_aaaaaaaaaaaa"), []byte{1})
	wantKind(t, err, apperr.Internal)
	if !created || first.ID != "id-1" {
		t.Fatalf("first call: created=%v id=%s", created, first.ID)
	}
	again, created, err := s.EnsureFirstAccount(ctx, newAccount("id-2", "two@example.test"), newKey("k2", "id-2", "cqa_bbbbbbbbbbbb"), []byte{2})
	wantKind(t, err, apperr.Internal)
	if created || again.ID != "id-1" {
		t.Errorf("second call: created=%v id=%s, want existing id-1", created, again.ID)
	}
	if _, _, err := s.KeyByPrefix(ctx, "cqa_bbbbbbbbbbbb"); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("second call stored its key: %v", err)
	}
}

func TestAPIKeyStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Accounts()
	wantKind(t, s.CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
	wantKind(t, s.CreateAccount(ctx, newAccount("a2", "two@example.test")), apperr.Internal)

	creates := []struct {
		name string
		key  *account.Key
		want apperr.Kind
	}{
		{"scoped", newKey("k1", "a1", "cqa_111111111111", account.ScopeKeysRead, account.ScopeProcessWrite), apperr.Internal},
		{"legacy", newKey("k2", "a1", "cqa_222222222222"), apperr.Internal},
		{"prefix taken", newKey("k3", "a2", "cqa_111111111111"), apperr.Conflict},
		{"unknown account", newKey("k4", "ghost", "cqa_444444444444"), apperr.NotFound},
	}
	for _, tt := range creates {
		t.Run("create "+tt.name, func(t *testing.T) {
			wantKind(t, s.CreateKey(ctx, tt.key, []byte("hash-"+tt.key.ID)), tt.want)
		})
	}

	k, hash, err := s.KeyByPrefix(ctx, "cqa_111111111111")
	wantKind(t, err, apperr.Internal)
	if k.ID != "k1" || string(hash) != "hash-k1" || !slices.Equal(k.Scopes, []string{account.ScopeKeysRead, account.ScopeProcessWrite}) ||
		!k.CreatedAt.Equal(t0) || !k.ExpiresAt.Equal(t0.Add(time.Hour)) || k.RevokedAt != nil || k.LastUsedAt != nil {
		t.Errorf("KeyByPrefix = %+v, hash %q", k, hash)
	}
	legacy, _, err := s.KeyByPrefix(ctx, "cqa_222222222222")
	wantKind(t, err, apperr.Internal)
	if legacy.Scopes != nil {
		t.Errorf("legacy key scopes = %#v, want nil", legacy.Scopes)
	}
	_, _, err = s.KeyByPrefix(ctx, "cqa_999999999999")
	wantKind(t, err, apperr.NotFound)

	revokes := []struct {
		name, account, key string
		want               apperr.Kind
	}{
		{"own key", "a1", "k1", apperr.Internal},
		{"again keeps first time", "a1", "k1", apperr.Internal},
		{"another account's key", "a2", "k2", apperr.NotFound},
		{"unknown key", "a1", "nope", apperr.NotFound},
	}
	for i, tt := range revokes {
		t.Run("revoke "+tt.name, func(t *testing.T) {
			wantKind(t, s.RevokeKey(ctx, tt.account, tt.key, t0.Add(time.Duration(i+1)*time.Minute)), tt.want)
		})
	}
	wantKind(t, s.TouchKey(ctx, "k2", t0.Add(time.Second)), apperr.Internal)

	list, err := s.ListKeys(ctx, "a1")
	wantKind(t, err, apperr.Internal)
	if len(list) != 2 || list[0].ID != "k1" || list[1].ID != "k2" {
		t.Fatalf("ListKeys(a1) = %+v", list)
	}
	if list[0].RevokedAt == nil || !list[0].RevokedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("revoked_at = %v, want the first revocation %v", list[0].RevokedAt, t0.Add(time.Minute))
	}
	if list[1].LastUsedAt == nil || !list[1].LastUsedAt.Equal(t0.Add(time.Second)) || list[1].RevokedAt != nil {
		t.Errorf("k2 = %+v, want last used at t0+1s and not revoked", list[1])
	}
	if none, err := s.ListKeys(ctx, "a2"); err != nil || len(none) != 0 || none == nil {
		t.Errorf("ListKeys(a2) = %#v, %v; want an empty list", none, err)
	}
}
