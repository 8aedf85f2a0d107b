package account_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

// TestCreateKeyWithParent: a key minted by a key carries only scopes the
// parent has and never outlives it.
func TestCreateKeyWithParent(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "parent@example.test", account.TierPro)
	parentExpiry := start().Add(10 * 24 * time.Hour)
	parent, _, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "parent",
		Scopes: []string{account.ScopeKeysWrite, account.ScopeUsageRead}, ExpiresAt: &parentExpiry})
	if err != nil {
		t.Fatal(err)
	}
	usage := []string{account.ScopeUsageRead}
	tests := []struct {
		name        string
		in          account.NewKey
		wantKind    apperr.Kind
		wantDetails map[string]any
		wantExpires time.Time
	}{
		{name: "default lifetime cut to the parent's expiry", in: account.NewKey{Scopes: usage},
			wantExpires: parentExpiry},
		{name: "earlier expiry kept", in: account.NewKey{Scopes: usage, ExpiresAt: ptr(start().Add(time.Hour))},
			wantExpires: start().Add(time.Hour)},
		{name: "same expiry as the parent", in: account.NewKey{Scopes: usage, ExpiresAt: ptr(parentExpiry)},
			wantExpires: parentExpiry},
		{name: "a second after the parent", in: account.NewKey{Scopes: usage, ExpiresAt: ptr(parentExpiry.Add(time.Second))},
			wantKind: apperr.BadRequest, wantDetails: map[string]any{"field": "expiresAt", "reason": "parent_expiry", "notAfter": "2026-02-13T04:05:06Z"}},
		{name: "year 9999", in: account.NewKey{Scopes: usage, ExpiresAt: ptr(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))},
			wantKind: apperr.BadRequest, wantDetails: map[string]any{"field": "expiresAt", "reason": "parent_expiry", "notAfter": "2026-02-13T04:05:06Z"}},
		{name: "a scope the parent lacks", in: account.NewKey{Scopes: []string{account.ScopeUsageRead, account.ScopeProcessWrite}},
			wantKind: apperr.Forbidden, wantDetails: map[string]any{"missingScope": account.ScopeProcessWrite}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.in.Name, tt.in.Parent = "child", parent
			k, _, err := svc.CreateKey(ctx, a.ID, tt.in)
			wantKind(t, err, tt.wantKind)
			for key, want := range tt.wantDetails {
				if got := detail(err, key); got != want {
					t.Errorf("details.%s = %v; want %v", key, got, want)
				}
			}
			if err == nil && !k.ExpiresAt.Equal(tt.wantExpires) {
				t.Errorf("expires at %v; want %v", k.ExpiresAt, tt.wantExpires)
			}
		})
	}
	// Without a parent (the owner acting directly) the same later expiry
	// is fine.
	if _, _, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "direct", Scopes: usage, ExpiresAt: ptr(parentExpiry.Add(time.Hour))}); err != nil {
		t.Errorf("without a parent: %v", err)
	}
}

// TestKeyLifetimeCapped: a default lifetime configured above the maximum
// is cut to it, for the owner's first key and for later ones.
func TestKeyLifetimeCapped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := account.NewService(testkit.MustOpenDB(t).Accounts(),
		account.Options{Now: testkit.NewClock(start()).Now, DefaultKeyTTL: 10 * 365 * 24 * time.Hour})
	owner, _, created, err := svc.EnsureOwner(ctx, "owner@example.test")
	if err != nil || !created {
		t.Fatalf("EnsureOwner: %v, created %v", err, created)
	}
	k, _, err := svc.CreateKey(ctx, owner.ID, account.NewKey{Name: "later", Scopes: []string{account.ScopeUsageRead}})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := svc.ActiveKeys(ctx, owner.ID)
	if err != nil || len(keys) != 2 {
		t.Fatalf("ActiveKeys = %v, %v", keys, err)
	}
	want := start().Add(account.MaxKeyLifetime)
	for _, got := range []time.Time{keys[0].ExpiresAt, k.ExpiresAt} {
		if !got.Equal(want) {
			t.Errorf("key expires at %v; want %v, a year after creation", got, want)
		}
	}
}

// TestActiveKeyCap: an account holds at most MaxActiveKeys active keys;
// revoked and expired ones do not count, and another account is not
// affected.
func TestActiveKeyCap(t *testing.T) {
	t.Parallel()
	svc, clock := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "cap@example.test", account.TierPro)
	other := testkit.MustCreateAccount(t, svc, "uncapped@example.test", account.TierPro)
	var first, shortLived *account.Key
	for i := range account.MaxActiveKeys {
		in := account.NewKey{Name: "k", Scopes: []string{account.ScopeUsageRead}}
		if i == 1 {
			in.ExpiresAt = ptr(start().Add(time.Hour))
		}
		k, _, err := svc.CreateKey(ctx, a.ID, in)
		if err != nil {
			t.Fatalf("key %d: %v", i+1, err)
		}
		switch i {
		case 0:
			first = k
		case 1:
			shortLived = k
		}
	}
	one := account.NewKey{Name: "one more", Scopes: []string{account.ScopeUsageRead}}
	_, _, err := svc.CreateKey(ctx, a.ID, one)
	wantKind(t, err, apperr.Conflict)
	if detail(err, "limit") != account.MaxActiveKeys || detail(err, "reason") != "key_limit" {
		t.Errorf("details = %v; want limit %d, reason key_limit", err, account.MaxActiveKeys)
	}
	if _, _, err := svc.CreateKey(ctx, other.ID, one); err != nil {
		t.Errorf("another account: %v", err)
	}
	// Revoking one makes room for one.
	if _, err := svc.RevokeKey(ctx, a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateKey(ctx, a.ID, one); err != nil {
		t.Fatalf("after a revocation: %v", err)
	}
	_, _, err = svc.CreateKey(ctx, a.ID, one)
	wantKind(t, err, apperr.Conflict)
	// So does one expiring.
	clock.Set(shortLived.ExpiresAt)
	if _, _, err := svc.CreateKey(ctx, a.ID, one); err != nil {
		t.Fatalf("after an expiry: %v", err)
	}
	_, _, err = svc.CreateKey(ctx, a.ID, one)
	wantKind(t, err, apperr.Conflict)

	// The listing of all 102 keys ends with the revoked and the expired
	// one, the oldest; the active ones leave both out.
	active, err := svc.ActiveKeys(ctx, a.ID)
	if err != nil || len(active) != account.MaxActiveKeys {
		t.Fatalf("ActiveKeys: %d keys, %v; want %d", len(active), err, account.MaxActiveKeys)
	}
	for _, k := range active {
		if k.ID == first.ID || k.ID == shortLived.ID {
			t.Errorf("ActiveKeys lists %s, which is revoked or expired", k.ID)
		}
	}
	page, err := svc.ListKeys(ctx, a.ID, account.MaxKeyListLimit, "")
	if err != nil || len(page.Keys) != account.MaxKeyListLimit || page.NextCursor == "" {
		t.Fatalf("first page: %d keys, next %q, %v; want %d and a next page", len(page.Keys), page.NextCursor, err, account.MaxKeyListLimit)
	}
	rest, err := svc.ListKeys(ctx, a.ID, account.MaxKeyListLimit, page.NextCursor)
	if err != nil || len(rest.Keys) != 2 || rest.Keys[0].ID != shortLived.ID || rest.Keys[1].ID != first.ID || rest.NextCursor != "" {
		t.Errorf("last page = %+v, %v; want the expired key, then the revoked one, and no next page", rest, err)
	}
}

// TestActiveKeyCapUnderConcurrency: racing creations never take an
// account past the cap.
func TestActiveKeyCapUnderConcurrency(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	a := testkit.MustCreateAccount(t, svc, "race@example.test", account.TierPro)
	const free = 5
	for range account.MaxActiveKeys - free {
		testkit.MustCreateKey(t, svc, a.ID, account.ScopeUsageRead)
	}
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			_, _, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "race", Scopes: []string{account.ScopeUsageRead}})
			switch {
			case err == nil:
				ok.Add(1)
			case apperr.KindOf(err) == apperr.Conflict:
				refused.Add(1)
			default:
				t.Errorf("CreateKey: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != free || refused.Load() != 40-free {
		t.Errorf("%d created, %d refused; want exactly %d and %d", ok.Load(), refused.Load(), free, 40-free)
	}
	page, err := svc.ListKeys(ctx, a.ID, account.MaxKeyListLimit, "")
	if err != nil || len(page.Keys) != account.MaxActiveKeys || page.NextCursor != "" {
		t.Errorf("%d keys stored (%v), next page %q; want %d", len(page.Keys), err, page.NextCursor, account.MaxActiveKeys)
	}
}
