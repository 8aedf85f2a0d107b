package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func openTemp(t *testing.T, path string) *DB {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	db, err := Open(context.Background(), path, Options{Now: now})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrationsAppliedOnceAndRecorded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "m.db")
	first := openTemp(t, path)
	second := openTemp(t, path) // re-opening applies nothing new
	for _, db := range []*DB{first, second} {
		rows, err := db.read.Query(`SELECT name, applied_at FROM schema_migrations ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var name, at string
			if err := rows.Scan(&name, &at); err != nil {
				t.Fatal(err)
			}
			if at != "2026-03-04T05:06:07Z" {
				t.Errorf("applied_at = %q, want RFC 3339 UTC from the injected clock", at)
			}
			got = append(got, name)
		}
		rows.Close()
		if want := []string{"migrations/0001_init.sql", "migrations/0002_sessions.sql", "migrations/0003_projects.sql", "migrations/0004_exports.sql", "migrations/0005_webhooks.sql", "migrations/0006_export_templates.sql", "migrations/0007_media_jobs.sql", "migrations/0008_extract_jobs.sql", "migrations/0009_signin_links.sql"}; !slices.Equal(got, want) {
			t.Errorf("schema_migrations = %v, want %v", got, want)
		}
	}
}

func TestPragmas(t *testing.T) {
	t.Parallel()
	db := openTemp(t, filepath.Join(t.TempDir(), "p.db"))
	// The readiness probe shortens the write connection's busy timeout
	// for itself only.
	if err := db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	pools := map[string]*sql.DB{"read": db.read, "write": db.write.DB}
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
	if _, err := db.read.Exec(`DELETE FROM daily_usage`); err == nil {
		t.Error("read pool accepted a write; want query_only")
	}
}

func TestMemoryDatabase(t *testing.T) {
	t.Parallel()
	db := openTemp(t, ":memory:")
	if err := db.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Reads and writes must see the same private database.
	if _, err := db.write.Exec(`INSERT INTO daily_usage(pool, day, used) VALUES('p', '2026-01-01', 3)`); err != nil {
		t.Fatal(err)
	}
	var used int
	if err := db.read.QueryRow(`SELECT used FROM daily_usage WHERE pool = 'p'`).Scan(&used); err != nil || used != 3 {
		t.Fatalf("read back used = %d, %v; want 3", used, err)
	}
	other := openTemp(t, ":memory:")
	var n int
	if err := other.read.QueryRow(`SELECT count(*) FROM daily_usage`).Scan(&n); err != nil || n != 0 {
		t.Errorf("second :memory: database has %d rows, %v; want its own empty database", n, err)
	}
}

func TestDeletingAccountCascadesToKeys(t *testing.T) {
	t.Parallel()
	db := openTemp(t, filepath.Join(t.TempDir(), "c.db"))
	exec := func(q string) {
		t.Helper()
		if _, err := db.write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, '2026-01-01T00:00:00Z')`)
	exec(`INSERT INTO api_keys(id, account_id, name, prefix, hash, created_at, expires_at) VALUES('k', 'a', 'n', 'cqa_000000000000', x'00', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')`)
	exec(`DELETE FROM accounts WHERE id = 'a'`)
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM api_keys`).Scan(&n); err != nil || n != 0 {
		t.Errorf("keys after deleting their account: %d, %v; want 0", n, err)
	}
}

func TestConstraintClassification(t *testing.T) {
	t.Parallel()
	db := openTemp(t, filepath.Join(t.TempDir(), "e.db"))
	_, err := db.write.Exec(`INSERT INTO accounts(id, email, tier, daily_cap, created_at) VALUES('a', 'a@x.test', 'pro', 1, 't'), ('b', 'a@x.test', 'pro', 1, 't')`)
	if !isUnique(err) || isForeignKey(err) {
		t.Errorf("duplicate email: isUnique=%v isForeignKey=%v (%v); want unique only", isUnique(err), isForeignKey(err), err)
	}
	_, err = db.write.Exec(`INSERT INTO api_keys(id, account_id, name, prefix, hash, created_at, expires_at) VALUES('k', 'nobody', 'n', 'p', x'00', 't', 't')`)
	if !isForeignKey(err) || isUnique(err) {
		t.Errorf("missing account: isForeignKey=%v isUnique=%v (%v); want foreign key only", isForeignKey(err), isUnique(err), err)
	}
	plain := errors.New("not a driver error")
	if isUnique(plain) || isForeignKey(plain) || isUnique(nil) {
		t.Error("non-driver errors classified as constraint violations")
	}
}
