package sqlite_test

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// The fixtures and the assertion busy_test.go uses; the store's own
// tests (accounts, keys and the rest) run on both engines in package
// sqlstore.

// t0 is the tests' base time, whole seconds.
var t0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func newAccount(id, email string) *account.Account {
	return &account.Account{ID: id, Email: email, Tier: account.TierPro,
		Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: t0}
}

func newKey(id, accountID, prefix string, scopes ...string) *account.Key {
	return &account.Key{ID: id, AccountID: accountID, Name: "k-" + id, Prefix: prefix, Scopes: scopes,
		CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
}

// wantKind fails the test unless err has kind want; Internal means no
// error at all.
func wantKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if got := apperr.KindOf(err); got != want || (want != apperr.Internal && err == nil) {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
	if want == apperr.Internal && err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}
