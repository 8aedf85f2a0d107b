// Package testkit is test support: a real SQLite database per test, fixture
// builders and a fake clock. Only tests (and other test support) import it.
package testkit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

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

// MustCreateLegacyKey stores a key as releases before scopes stored
// them: with none recorded, which limits it to process:write. The service
// mints no such key, so it is written through the store, with a secret of
// the layout account documents (SecretTag, 12 hex characters, "_", 43
// base64url characters) and its SHA-256; it was created at now and
// expires after the default lifetime.
func MustCreateLegacyKey(t testing.TB, store *sqlite.AccountStore, accountID string, now time.Time) (key *account.Key, secret string) {
	t.Helper()
	var raw [6 + 32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		t.Fatal(err)
	}
	prefix := account.SecretTag + hex.EncodeToString(raw[:6])
	secret = prefix + "_" + base64.RawURLEncoding.EncodeToString(raw[6:])
	hash := sha256.Sum256([]byte(secret))
	now = now.UTC().Truncate(time.Second)
	key = &account.Key{ID: uuid.NewString(), AccountID: accountID, Name: "legacy", Prefix: prefix,
		CreatedAt: now, ExpiresAt: now.Add(account.DefaultKeyTTL)}
	if err := store.CreateKey(context.Background(), key, hash[:]); err != nil {
		t.Fatalf("testkit: store a legacy key: %v", err)
	}
	return key, secret
}
