package postgres

import (
	"context"
	"testing"
)

// BenchmarkRoundTrip times the cheapest query through the pool (SELECT 1,
// a prepared statement): the floor of every store call, against which
// the API's Postgres-backed benchmarks (backend/httpapi
// BenchmarkProcessStore) count their round trips.
func BenchmarkRoundTrip(b *testing.B) {
	_, e := openTest(b, nil)
	ctx := context.Background()
	var one int
	b.ResetTimer()
	for range b.N {
		if err := e.pool.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil {
			b.Fatal(err)
		}
	}
}
