// Package testkit is test support: a real database per test (SQLite, or
// PostgreSQL when CAPTIONQA_TEST_STORE=postgres, so that the same suites
// run against both stores), fixture builders and a fake clock. Only tests
// (and other test support) import it.
package testkit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/postgres"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// StoreEnv names the store the tests run on: "postgres" for a
// throwaway PostgreSQL database per test (package pgtest), anything else
// for a SQLite file.
const StoreEnv = "CAPTIONQA_TEST_STORE"

// OnPostgres reports whether the tests run on PostgreSQL.
func OnPostgres() bool { return os.Getenv(StoreEnv) == "postgres" }

// MustOpenDB opens a fresh, migrated store for the test, closed when the
// test ends: a SQLite file in t.TempDir, or with CAPTIONQA_TEST_STORE=
// postgres a database of its own on the test binary's PostgreSQL.
func MustOpenDB(t testing.TB) store.DB {
	t.Helper()
	return MustOpenDBAt(t, nil)
}

// MustOpenDBAt is [MustOpenDB] with the store's clock (nil: time.Now).
func MustOpenDBAt(t testing.TB, now func() time.Time) store.DB {
	t.Helper()
	var db store.DB
	if OnPostgres() {
		pg, err := postgres.Open(context.Background(), PostgresURL(t), postgres.Options{Now: now})
		if err != nil {
			t.Fatalf("testkit: open postgres: %v", err)
		}
		db = pg.Store()
	} else {
		lite, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "captionqa.db"), sqlite.Options{Now: now})
		if err != nil {
			t.Fatalf("testkit: open db: %v", err)
		}
		db = lite.Store()
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("testkit: close db: %v", err)
		}
	})
	return db
}

// PostgresURL returns the URL of a fresh database for the test on the test
// binary's PostgreSQL, migrated (the store's tables and River's).
func PostgresURL(t testing.TB) string {
	t.Helper()
	return pgtest.FromTemplate(t, "captionqa_testkit", func(ctx context.Context, url string) error {
		db, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			return err
		}
		defer db.Close()
		// River migrates its tables when a queue opens.
		_, err = db.OpenQueue(ctx, jobs.QueueOptions{})
		return err
	})
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
func MustCreateLegacyKey(t testing.TB, accounts account.Store, accountID string, now time.Time) (key *account.Key, secret string) {
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
	if err := accounts.CreateKey(context.Background(), key, hash[:]); err != nil {
		t.Fatalf("testkit: store a legacy key: %v", err)
	}
	return key, secret
}
