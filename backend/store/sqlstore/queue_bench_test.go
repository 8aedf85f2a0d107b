package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// BenchmarkWriteTxBesideQueue measures what a running River client costs
// the store's writes, on each engine: a small write transaction with no
// queue, with an idle queue polling every second (the default), and with
// one polling every 100 ms while jobs are enqueued and worked. On SQLite
// they share its one writer connection; on PostgreSQL the pool. Run with
// -bench WriteTxBesideQueue -benchtime 2000x.
func BenchmarkWriteTxBesideQueue(b *testing.B) {
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			for _, tc := range []struct {
				name string
				poll time.Duration // 0: no queue
				jobs bool          // enqueue a job in every write
			}{
				{"no_queue", 0, false},
				{"idle_queue_1s", time.Second, false},
				{"busy_queue_100ms", 100 * time.Millisecond, true},
			} {
				b.Run(tc.name, func(b *testing.B) {
					db := withTestRows(b, e.open(b, nil))
					ctx := context.Background()
					var q *sqlstore.Queue
					if tc.poll > 0 {
						ws := jobs.NewWorkers()
						jobs.Handle(ws, func(context.Context, echoJob) error { return nil })
						var err error
						if q, err = db.OpenQueue(ctx, jobs.QueueOptions{Workers: ws, PollInterval: tc.poll}); err != nil {
							b.Fatal(err)
						}
						if err := q.Start(ctx); err != nil {
							b.Fatal(err)
						}
						b.Cleanup(func() {
							sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
							defer cancel()
							_ = q.Stop(sctx)
						})
						// Measure the client at work, not its start: wait
						// until it has been elected leader (and runs the
						// maintenance a leader runs).
						deadline := time.Now().Add(30 * time.Second)
						for countRows(b, db, `SELECT count(*) FROM river_leader`) == 0 {
							if time.Now().After(deadline) {
								b.Fatal("no River leader elected")
							}
							time.Sleep(50 * time.Millisecond)
						}
					}
					b.ResetTimer()
					for i := range b.N {
						name := fmt.Sprint(i)
						write := func(tx *sqlstore.Tx) error {
							if _, err := tx.Exec(ctx, `INSERT INTO test_rows(name) VALUES($1)`, name); err != nil {
								return err
							}
							if tc.jobs {
								_, err := tx.Enqueue(ctx, echoJob{Name: name}, nil)
								return err
							}
							return nil
						}
						var err error
						if q != nil {
							err = q.WriteTx(ctx, write)
						} else {
							err = db.WriteTx(ctx, write)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
