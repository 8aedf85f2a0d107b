package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// migratedTemplate is the template database every test's copy comes
// from: migrated once per test binary.
const migratedTemplate = "captionqa_postgres_test"

// openTest opens a fresh, migrated database for the test (a copy of the
// template), closed when the test ends; now nil is time.Now.
func openTest(t testing.TB, now func() time.Time) (*sqlstore.DB, *engine) {
	t.Helper()
	url := pgtest.FromTemplate(t, migratedTemplate, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url, Options{})
		if err != nil {
			return err
		}
		return db.Close()
	})
	db, e, err := open(context.Background(), url, Options{Now: now})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, e
}
