// Package testkit is test support: a real SQLite database per test, fixture
// builders and a fake clock. Only tests (and other test support) import it.
package testkit

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// MustOpenDB opens a fresh SQLite file in t.TempDir, migrated, and closes
// it when the test ends.
func MustOpenDB(t testing.TB) *sqlite.DB {
	t.Helper()
	db, _ := MustOpenDBFile(t)
	return db
}

// MustOpenDBFile is [MustOpenDB] that also returns the file's path, for
// tests that reach the file directly.
func MustOpenDBFile(t testing.TB) (*sqlite.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "captionqa.db")
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatalf("testkit: open db: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("testkit: close db: %v", err)
		}
	})
	return db, path
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

// MustCreateKey creates a key named "test" with the scopes (at least one)
// and the default lifetime, returning it and its one-time secret.
func MustCreateKey(t testing.TB, svc *account.Service, accountID string, scopes ...string) (key *account.Key, secret string) {
	t.Helper()
	key, secret, err := svc.CreateKey(context.Background(), accountID, account.NewKey{Name: "test", Scopes: scopes})
	if err != nil {
		t.Fatalf("testkit: create key: %v", err)
	}
	return key, secret
}

// MustCreateLegacyKey creates a key stored as keys from before scopes
// were: with none recorded, which limits it to process:write. The service
// mints no such key, so the key is made with one scope and its row's
// scopes are then cleared through a connection of its own to the database
// file at path.
func MustCreateLegacyKey(t testing.TB, svc *account.Service, path, accountID string) (key *account.Key, secret string) {
	t.Helper()
	key, secret = MustCreateKey(t, svc, accountID, account.ScopeProcessWrite)
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatalf("testkit: open %s: %v", path, err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE api_keys SET scopes = '[]' WHERE id = ?`, key.ID); err != nil {
		t.Fatalf("testkit: clear the scopes of key %s: %v", key.ID, err)
	}
	key.Scopes = nil
	return key, secret
}
