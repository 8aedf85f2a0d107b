package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/postgres"
)

// queryCounter counts the statements a pool sends: each is one round trip
// (the store sends no batches).
type queryCounter struct{ n atomic.Int64 }

func (q *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	q.n.Add(1)
	return ctx
}

func (q *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// pgNode starts a server on its own pool over url, as one node of a
// cluster: nodes share the database and nothing else.
func pgNode(b *testing.B, url string, counter *queryCounter) *testServer {
	b.Helper()
	db, err := postgres.Open(context.Background(), url, postgres.Options{Tracer: counter})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return newTestServer(b, func(c *server.Config) {
		c.Logger = slog.New(slog.DiscardHandler)
		c.ProDailyCap = 9999
		c.DB = db.Store()
	})
}

// serial posts file to url b.N times, one request at a time (low load),
// and reports the round trips counter saw per request.
func serial(b *testing.B, client *http.Client, newDay func(), call func() (*http.Request, error), counter *queryCounter) {
	b.Helper()
	b.ReportAllocs()
	start := counter.n.Load()
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%9000 == 0 {
			newDay()
		}
		req, err := call()
		if err != nil {
			b.Fatal(err)
		}
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(counter.n.Load()-start)/float64(b.N), "pg-queries/op")
}

// BenchmarkProcessStore times POST /api/v1/process with a 5 KB SRT, one
// request at a time, on a node over SQLite and on a node over
// PostgreSQL (a local server on loopback), with PostgreSQL's round trips
// per request. The target: the Postgres node within 1.5x of SQLite's
// latency at low load.
func BenchmarkProcessStore(b *testing.B) {
	file := srtOfSize(5 << 10)
	b.Run("sqlite", func(b *testing.B) {
		ts := newTestServer(b, func(c *server.Config) {
			c.Logger = slog.New(slog.DiscardHandler)
			c.ProDailyCap = 9999
			c.DB = testkit.MustOpenDBAt(b, c.Now)
		})
		var none queryCounter
		serial(b, ts.raw, ts.newDay, processRequest(b, ts, ts.pro("bench@example.com"), file), &none)
	})
	b.Run("postgres", func(b *testing.B) {
		var counter queryCounter
		ts := pgNode(b, testkit.PostgresURL(b), &counter)
		serial(b, ts.raw, ts.newDay, processRequest(b, ts, ts.pro("bench@example.com"), file), &counter)
	})
}

// BenchmarkProcessNodes posts a 5 KB SRT in parallel (GOMAXPROCS
// clients), round robin over 1, 2 and 3 API nodes sharing one
// PostgreSQL database, and reports requests per second, latency and
// round trips per request. Every node runs in this process: on a machine
// with few cores the nodes share them, so the figures give each node's
// cost rather than a scaling curve (reported with the core count).
func BenchmarkProcessNodes(b *testing.B) {
	file := srtOfSize(5 << 10)
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			url := testkit.PostgresURL(b)
			var counter queryCounter
			nodes := make([]*testServer, n)
			for i := range nodes {
				nodes[i] = pgNode(b, url, &counter)
			}
			secret := nodes[0].pro("bench@example.com")
			calls := make([]func() (*http.Request, error), n)
			for i, ts := range nodes {
				calls[i] = processRequest(b, ts, secret, file)
			}
			var next atomic.Int64
			newDay := func() {
				for _, ts := range nodes {
					ts.newDay()
				}
			}
			start := counter.n.Load()
			measure(b, nodes[0].raw, newDay, func() (*http.Request, error) {
				return calls[int(next.Add(1))%n]()
			})
			b.ReportMetric(float64(counter.n.Load()-start)/float64(max(b.N, 1)), "pg-queries/op")
		})
	}
}
