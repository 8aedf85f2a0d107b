package postgres

import (
	"context"
	"io/fs"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// openNodes opens n nodes on one fresh, migrated database, each with
// its own pool full of open connections (as separate processes would
// have): connecting takes long enough to serialise the first calls of a
// race that would otherwise open them.
func openNodes(t testing.TB, n int, now func() time.Time) []*engine {
	t.Helper()
	_, first := openTest(t, now)
	url := first.pool.Config().ConnString()
	nodes := []*engine{first}
	for len(nodes) < n {
		db, e, err := open(context.Background(), url, Options{Now: now})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() { _ = db.Close() })
		nodes = append(nodes, e)
	}
	ctx := context.Background()
	for _, e := range nodes {
		var conns []*pgxpool.Conn
		for range e.pool.Config().MaxConns {
			c, err := e.pool.Acquire(ctx)
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

// appliedVersions lists goose's record of applied migrations.
func appliedVersions(t *testing.T, e *engine) []int64 {
	t.Helper()
	rows, err := e.pool.Query(context.Background(), `SELECT version_id FROM goose_db_version WHERE is_applied ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// migrationVersions are the versions of the migration files, with goose's
// 0 first.
func migrationVersions(t *testing.T) []int64 {
	t.Helper()
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	versions := []int64{0}
	for i := range names {
		versions = append(versions, int64(i+1))
	}
	return versions
}

// TestNodesMigrateTogether starts several nodes on one empty database at
// once: the advisory lock lets one apply each migration while the others
// wait, and every node then finds them all recorded once.
func TestNodesMigrateTogether(t *testing.T) {
	t.Parallel()
	url := pgtest.Database(t)
	const nodes = 4
	dbs := make([]*sqlstore.DB, nodes)
	engines := make([]*engine, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() { dbs[i], engines[i], errs[i] = open(context.Background(), url, Options{}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		t.Cleanup(func() { _ = dbs[i].Close() })
	}
	if got, want := appliedVersions(t, engines[0]), migrationVersions(t); !slices.Equal(got, want) {
		t.Errorf("goose_db_version = %v, want each migration once: %v", got, want)
	}
}

// TestEarlierRecordAdopted: a database the store's earlier runner
// migrated (its schema_migrations table) opens with goose, which applies
// nothing again, keeps the rows and drops the old record.
func TestEarlierRecordAdopted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Database(t)
	old, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL)`)
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	for _, name := range names {
		body, _ := fs.ReadFile(migrationFS, name)
		exec(string(body))
		exec(`INSERT INTO schema_migrations(name, applied_at) VALUES($1, now())`, name)
	}
	exec(`INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, now())`)
	old.Close(ctx)

	db, e, err := open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, want := appliedVersions(t, e), migrationVersions(t); !slices.Equal(got, want) {
		t.Errorf("goose_db_version = %v, want %v", got, want)
	}
	if _, err := db.Accounts().AccountByID(ctx, "a"); err != nil {
		t.Errorf("the account written before: %v", err)
	}
	var n int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("schema_migrations still there (%d, %v)", n, err)
	}
}
