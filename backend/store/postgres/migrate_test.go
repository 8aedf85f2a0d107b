package postgres

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/captionqa/captionqa/backend/internal/pgtest"
)

// openTestURL opens another node on the database at url (its own pool,
// as a separate process would have), closed when the test ends.
func openTestURL(t testing.TB, url string, now func() time.Time) *DB {
	t.Helper()
	db, err := Open(context.Background(), url, Options{Now: now})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// openNodes opens n nodes on one fresh, migrated database, each with
// its pool full of open connections: connecting takes long enough to
// serialise the first calls of a race that would otherwise open them.
func openNodes(t testing.TB, n int, now func() time.Time) []*DB {
	t.Helper()
	first := openTest(t, now)
	url := first.pool.Config().ConnString()
	nodes := []*DB{first}
	for len(nodes) < n {
		nodes = append(nodes, openTestURL(t, url, now))
	}
	ctx := context.Background()
	for _, db := range nodes {
		var conns []*pgxpool.Conn
		for range db.pool.Config().MaxConns {
			c, err := db.pool.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		for _, c := range conns {
			c.Release()
		}
	}
	return nodes
}

// TestNodesMigrateTogether starts several nodes on one empty database at
// once: the advisory lock lets one apply each migration while the others
// wait, and every node then finds them all recorded once.
func TestNodesMigrateTogether(t *testing.T) {
	t.Parallel()
	url := pgtest.Database(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 800, time.UTC)
	now := func() time.Time { return at }
	const nodes = 4
	dbs := make([]*DB, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i], errs[i] = Open(context.Background(), url, Options{Now: now})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		t.Cleanup(func() { _ = dbs[i].Close() })
	}
	rows, err := dbs[0].pool.Query(context.Background(), `SELECT name, applied_at FROM schema_migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		var applied time.Time
		if err := rows.Scan(&name, &applied); err != nil {
			t.Fatal(err)
		}
		if !applied.Equal(at.Truncate(time.Second)) {
			t.Errorf("%s applied_at = %v, want the injected clock in whole seconds", name, applied)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 || names[0] != "migrations/0001_accounts.sql" || !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("schema_migrations = %v, want each migration once, 0001_accounts first", names)
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ".sql") {
			t.Errorf("recorded %q, not a migration file", name)
		}
	}
}
