package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// BenchmarkWriteTxBesideQueue measures what a running River client costs
// the store's writes, which share its one writer connection: a small
// write transaction with no queue, with an idle queue polling every
// second (the default), and with one polling every 100 ms while jobs are
// enqueued and worked. Run with -bench WriteTxBesideQueue -benchtime 2000x.
func BenchmarkWriteTxBesideQueue(b *testing.B) {
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
			db := openTestDB(b)
			ctx := context.Background()
			var q *Queue
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
				defer q.Stop(ctx)
				time.Sleep(2 * time.Second) // let leader election and maintenance settle
			}
			b.ResetTimer()
			for i := range b.N {
				name := fmt.Sprint(i)
				write := func(tx *Tx) error {
					if _, err := tx.tx.ExecContext(ctx, `INSERT INTO test_rows(name) VALUES(?)`, name); err != nil {
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
}
