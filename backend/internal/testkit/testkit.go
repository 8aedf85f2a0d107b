// Package testkit is test support: a real SQLite database per test, fixture
// builders and a fake clock. Only tests (and other test support) import it.
package testkit

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// MustOpenDB opens a fresh SQLite file in t.TempDir, migrated, and closes
// it when the test ends.
func MustOpenDB(t testing.TB) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "captionqa.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("testkit: open db: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("testkit: close db: %v", err)
		}
	})
	return db
}

// MustCreateAccount creates an account; no features means the tier's
// defaults.
func MustCreateAccount(t testing.TB, svc *account.Service, email, tier string, features ...string) *account.Account {
	t.Helper()
	in := account.NewAccount{Email: email, Tier: tier}
	if len(features) > 0 {
		in.Features = features
	}
	a, err := svc.CreateAccount(context.Background(), in)
	if err != nil {
		t.Fatalf("testkit: create account %s: %v", email, err)
	}
	return a
}

// MustCreateKey creates a key named "test" with the scopes and the
// default lifetime, returning it and its one-time secret. No scopes make
// a legacy key (process:write only).
func MustCreateKey(t testing.TB, svc *account.Service, accountID string, scopes ...string) (key *account.Key, secret string) {
	t.Helper()
	key, secret, err := svc.CreateKey(context.Background(), accountID, account.NewKey{Name: "test", Scopes: scopes})
	if err != nil {
		t.Fatalf("testkit: create key: %v", err)
	}
	return key, secret
}
