package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// Each engine's migrations are written for its column types, so nothing
// but this test keeps the two schemas the same. What differs on purpose:
var (
	// onlyOn are tables one engine keeps: what a cluster shares that a
	// single node keeps in memory or in its data folder.
	onlyOn = map[string][]string{"postgres": {"rate_buckets", "shared_secret"}}
	// seqColumn is PostgreSQL's insertion order, which SQLite's implicit
	// rowid gives; every SQLite index ends with the rowid implicitly, so
	// a PostgreSQL index that ends with seq matches one without it.
	seqColumn = "seq"
)

// notOurs are tables the migration runner, the job queue and SQLite keep
// for themselves.
func notOurs(table string) bool {
	return table == "goose_db_version" || table == "sqlite_sequence" || strings.HasPrefix(table, "river_")
}

// schema is a database's tables with their columns, and its indexes (by
// name) with their table and columns, each as "table(col, ...)".
type schema struct {
	Tables  map[string][]string
	Indexes map[string]string
}

// TestSchemaParity: both engines' migrations make the same tables,
// columns and indexes, but for the differences listed above.
func TestSchemaParity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	got := map[string]schema{}
	for _, e := range engines {
		db := e.open(t, nil)
		s := readSchema(t, ctx, e.name, db)
		for _, table := range onlyOn[e.name] {
			if _, ok := s.Tables[table]; !ok {
				t.Errorf("%s: no table %s", e.name, table)
			}
			delete(s.Tables, table)
		}
		if e.name == "postgres" {
			for table, cols := range s.Tables {
				s.Tables[table] = slices.DeleteFunc(cols, func(c string) bool { return c == seqColumn })
			}
			for index, def := range s.Indexes {
				s.Indexes[index] = strings.Replace(def, ", "+seqColumn+")", ")", 1)
			}
		}
		got[e.name] = s
	}
	lite, pg := got["sqlite"], got["postgres"]
	for _, table := range union(lite.Tables, pg.Tables) {
		if a, b := lite.Tables[table], pg.Tables[table]; !slices.Equal(a, b) {
			t.Errorf("table %s: columns on sqlite %v, on postgres %v", table, a, b)
		}
	}
	for _, index := range union(lite.Indexes, pg.Indexes) {
		if a, b := lite.Indexes[index], pg.Indexes[index]; a != b {
			t.Errorf("index %s: on sqlite %q, on postgres %q", index, a, b)
		}
	}
}

// union returns the keys of a and b, sorted.
func union[V any](a, b map[string]V) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func readSchema(t *testing.T, ctx context.Context, engine string, db *sqlstore.DB) schema {
	t.Helper()
	tables, indexes := queries[engine][0], queries[engine][1]
	s := schema{Tables: map[string][]string{}, Indexes: map[string]string{}}
	for _, row := range rows(t, ctx, db, tables) {
		if !notOurs(row[0]) {
			s.Tables[row[0]] = append(s.Tables[row[0]], row[1])
		}
	}
	for table := range s.Tables {
		slices.Sort(s.Tables[table])
	}
	for _, row := range rows(t, ctx, db, indexes) {
		if !notOurs(row[1]) {
			s.Indexes[row[0]] = row[1] + "(" + row[2] + ")"
		}
	}
	return s
}

// queries read (table, column) and (index, table, columns) rows; the
// indexes are those made by CREATE INDEX, not those behind a primary
// key or a UNIQUE constraint.
var queries = map[string][2]string{
	"sqlite": {
		`SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table'`,
		`SELECT m.name, m.tbl_name, (SELECT group_concat(name, ', ') FROM (SELECT i.name FROM pragma_index_info(m.name) i ORDER BY i.seqno))
			FROM sqlite_master m WHERE m.type = 'index' AND m.sql IS NOT NULL`,
	},
	"postgres": {
		`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
		`SELECT i.relname, t.relname, (SELECT string_agg(a.attname, ', ' ORDER BY k.n)
				FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum)
			FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
			JOIN pg_namespace n ON n.oid = t.relnamespace
			WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
	},
}

// rows returns the rows of query as text.
func rows(t *testing.T, ctx context.Context, db *sqlstore.DB, query string) [][]string {
	t.Helper()
	r, err := db.Query(ctx, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer r.Close()
	cols, err := r.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for r.Next() {
		row := make([]string, len(cols))
		dest := make([]any, len(cols))
		for i := range row {
			dest[i] = &row[i]
		}
		if err := r.Scan(dest...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		out = append(out, row)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
