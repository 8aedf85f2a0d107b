package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// openTemp opens the database at path for the test and returns it with
// its engine.
func openTemp(t *testing.T, path string) (*sqlstore.DB, *engine) {
	t.Helper()
	db, e, err := open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("open(%s): %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db, e
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

func appliedVersions(t *testing.T, db *sql.DB) []int64 {
	t.Helper()
	rows, err := db.Query(`SELECT version_id FROM goose_db_version WHERE is_applied ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	return got
}

func TestMigrationsAppliedOnceAndRecorded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "m.db")
	_, first := openTemp(t, path)
	_, second := openTemp(t, path) // re-opening applies nothing new
	for _, e := range []*engine{first, second} {
		if got, want := appliedVersions(t, e.read), migrationVersions(t); !slices.Equal(got, want) {
			t.Errorf("goose_db_version = %v, want %v", got, want)
		}
	}
}

// TestEarlierRecordAdopted: a file the store's earlier runner migrated
// (its schema_migrations table) opens with goose, which applies nothing
// again, keeps the rows and drops the old record.
func TestEarlierRecordAdopted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", fileDSN(path, true, DefaultBusyTimeout))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	mustExec(t, old, `CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT`)
	for _, name := range names {
		body, _ := fs.ReadFile(migrationFS, name)
		mustExec(t, old, string(body))
		mustExec(t, old, `INSERT INTO schema_migrations(name, applied_at) VALUES(?, '2026-01-01T00:00:00Z')`, name)
	}
	mustExec(t, old, `INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, '2026-01-01T00:00:00Z')`)
	old.Close()

	db, e := openTemp(t, path)
	if got, want := appliedVersions(t, e.read), migrationVersions(t); !slices.Equal(got, want) {
		t.Errorf("goose_db_version = %v, want %v", got, want)
	}
	if _, err := db.Accounts().AccountByID(ctx, "a"); err != nil {
		t.Errorf("the account written before: %v", err)
	}
	var n int
	if err := e.read.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'schema_migrations'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("schema_migrations still there (%d, %v)", n, err)
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestPragmas(t *testing.T) {
	t.Parallel()
	db, e := openTemp(t, filepath.Join(t.TempDir(), "p.db"))
	// The readiness probe shortens the write connection's busy timeout
	// for itself only.
	if err := db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	pools := map[string]*sql.DB{"read": e.read, "write": e.write}
	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		{"synchronous", "1"},
	}
	for _, tt := range tests {
		for name, pool := range pools {
			var got string
			if err := pool.QueryRow("PRAGMA " + tt.pragma).Scan(&got); err != nil {
				t.Fatalf("%s pool: PRAGMA %s: %v", name, tt.pragma, err)
			}
			if got != tt.want {
				t.Errorf("%s pool: PRAGMA %s = %q, want %q", name, tt.pragma, got, tt.want)
			}
		}
	}
	if _, err := e.read.Exec(`DELETE FROM daily_usage`); err == nil {
		t.Error("read pool accepted a write; want query_only")
	}
}

func TestMemoryDatabase(t *testing.T) {
	t.Parallel()
	_, e := openTemp(t, ":memory:")
	// Reads and writes must see the same private database.
	mustExec(t, e.write, `INSERT INTO daily_usage(pool, day, used) VALUES('p', '2026-01-01', 3)`)
	var used int
	if err := e.read.QueryRow(`SELECT used FROM daily_usage WHERE pool = 'p'`).Scan(&used); err != nil || used != 3 {
		t.Fatalf("read back used = %d, %v; want 3", used, err)
	}
	_, other := openTemp(t, ":memory:")
	var n int
	if err := other.read.QueryRow(`SELECT count(*) FROM daily_usage`).Scan(&n); err != nil || n != 0 {
		t.Errorf("second :memory: database has %d rows, %v; want its own empty database", n, err)
	}
}

func TestDeletingAccountCascadesToKeys(t *testing.T) {
	t.Parallel()
	_, e := openTemp(t, filepath.Join(t.TempDir(), "c.db"))
	mustExec(t, e.write, `INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, '2026-01-01T00:00:00Z')`)
	mustExec(t, e.write, `INSERT INTO api_keys(id, account_id, name, prefix, hash, created_at, expires_at) VALUES('k', 'a', 'n', 'cqa_000000000000', x'00', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')`)
	mustExec(t, e.write, `DELETE FROM accounts WHERE id = 'a'`)
	var n int
	if err := e.read.QueryRow(`SELECT count(*) FROM api_keys`).Scan(&n); err != nil || n != 0 {
		t.Errorf("keys after deleting their account: %d, %v; want 0", n, err)
	}
}

func TestConstraintClassification(t *testing.T) {
	t.Parallel()
	_, e := openTemp(t, filepath.Join(t.TempDir(), "e.db"))
	_, err := e.write.Exec(`INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, 't'), ('b', 'a@x.test', 'pro', 1, 't')`)
	if !isUnique(err) || isForeignKey(err) {
		t.Errorf("duplicate email: isUnique=%v isForeignKey=%v (%v); want unique only", isUnique(err), isForeignKey(err), err)
	}
	_, err = e.write.Exec(`INSERT INTO api_keys(id, account_id, name, prefix, hash, created_at, expires_at) VALUES('k', 'nobody', 'n', 'p', x'00', 't', 't')`)
	if !isForeignKey(err) || isUnique(err) {
		t.Errorf("missing account: isForeignKey=%v isUnique=%v (%v); want foreign key only", isForeignKey(err), isUnique(err), err)
	}
	plain := errors.New("not a driver error")
	if isUnique(plain) || isForeignKey(plain) || isUnique(nil) {
		t.Error("non-driver errors classified as constraint violations")
	}
}
