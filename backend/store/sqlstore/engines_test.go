package sqlstore_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/postgres"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// engine opens a fresh, migrated store (River's tables too) for a test,
// or n nodes on one such store: handles of their own on one SQLite file
// (as the server and an admin command have), pools of their own on one
// PostgreSQL database (as the nodes of a cluster have).
type engine struct {
	name  string
	open  func(t testing.TB, now func() time.Time) *sqlstore.DB
	nodes func(t testing.TB, n int, now func() time.Time) []*sqlstore.DB
}

// engines are the two the store runs on: every test of this package runs
// on each, as a subtest named after it.
var engines = []engine{{"sqlite", openSQLite, sqliteNodes}, {"postgres", openPostgres, postgresNodes}}

// forEach runs test on each engine, in parallel subtests.
func forEach(t *testing.T, test func(t *testing.T, open func(t testing.TB, now func() time.Time) *sqlstore.DB)) {
	t.Helper()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			test(t, e.open)
		})
	}
}

// sqliteTemplate is a migrated SQLite file, made once per test binary:
// migrating River's tables under -race costs seconds a file.
var sqliteTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sqlstore-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	if _, err := db.OpenQueue(context.Background(), jobs.QueueOptions{}); err != nil {
		db.Close()
		return nil, err
	}
	// Closing the last connection checkpoints the WAL into the file.
	if err := db.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

func openSQLite(t testing.TB, now func() time.Time) *sqlstore.DB {
	t.Helper()
	return sqliteNodes(t, 1, now)[0]
}

func sqliteNodes(t testing.TB, n int, now func() time.Time) []*sqlstore.DB {
	t.Helper()
	migrated, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("sqlite template: %v", err)
	}
	path := filepath.Join(t.TempDir(), "captionqa.db")
	if err := os.WriteFile(path, migrated, 0o600); err != nil {
		t.Fatal(err)
	}
	var nodes []*sqlstore.DB
	for range n {
		db, err := sqlite.Open(context.Background(), path, sqlite.Options{Now: now})
		if err != nil {
			t.Fatalf("open sqlite: %v", err)
		}
		t.Cleanup(func() { _ = db.Close() })
		nodes = append(nodes, db)
	}
	return nodes
}

func openPostgres(t testing.TB, now func() time.Time) *sqlstore.DB {
	t.Helper()
	return postgresNodes(t, 1, now)[0]
}

// postgresNodes opens n pools on one database, each warmed with open
// connections: connecting takes long enough to serialise the first calls
// of a race that would otherwise open them.
func postgresNodes(t testing.TB, n int, now func() time.Time) []*sqlstore.DB {
	t.Helper()
	url := pgtest.FromTemplate(t, "captionqa_sqlstore_test", func(ctx context.Context, url string) error {
		db, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.OpenQueue(ctx, jobs.QueueOptions{})
		return err
	})
	var nodes []*sqlstore.DB
	for range n {
		db, err := postgres.Open(context.Background(), url, postgres.Options{Now: now})
		if err != nil {
			t.Fatalf("open postgres: %v", err)
		}
		t.Cleanup(func() { _ = db.Close() })
		if n > 1 {
			if err := db.Warm(context.Background(), 4); err != nil {
				t.Fatal(err)
			}
		}
		nodes = append(nodes, db)
	}
	return nodes
}
