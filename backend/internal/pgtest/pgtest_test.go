package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/internal/pgtest"
)

// TestDatabasesAreSeparate: each test's database is its own, and a
// template's setup runs once however many copies are made.
func TestDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	setups := 0
	setup := func(ctx context.Context, url string) error {
		setups++
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, `CREATE TABLE marks (n int)`)
		return err
	}
	var urls []string
	for range 2 {
		urls = append(urls, pgtest.FromTemplate(t, "pgtest_marks", setup))
	}
	if setups != 1 || urls[0] == urls[1] {
		t.Fatalf("setups = %d, urls %v: want one setup and two databases", setups, urls)
	}
	for i, url := range urls {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO marks VALUES ($1)`, i); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM marks`).Scan(&n); err != nil || n != 1 {
			t.Errorf("database %d holds %d rows (%v), want only its own", i, n, err)
		}
		conn.Close(ctx)
	}
}
