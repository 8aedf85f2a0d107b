package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// ErrNoQueue is returned by [Tx.Enqueue] in a transaction begun by
// [DB.WriteTx], which has no queue: use [Queue.WriteTx].
var ErrNoQueue = errors.New("store: enqueue: transaction has no job queue")

// Tx is one write transaction, the unit of work: the store writes made
// through it and the jobs it enqueues commit together or not at all (an
// export, its artifacts and its webhook delivery; the transactional
// outbox). It is valid only inside the function given to [DB.WriteTx] or
// [Queue.WriteTx]. Stores offer writes through it with methods on Tx,
// in their own files.
type Tx struct {
	tx    *sql.Tx
	db    *DB
	now   time.Time
	queue *Queue
}

// Now is the transaction's one clock reading (UTC, whole seconds): every
// row it writes carries the same time.
func (t *Tx) Now() time.Time { return t.now }

// Enqueue inserts a job in this transaction; workers on any node see it
// once the transaction commits, and never if it rolls back. It returns
// the job's id. Errors: [ErrNoQueue] in a transaction without a queue.
// A queue without workers inserts any kind (another process works it);
// one with workers refuses a kind it has none for (River's unknown-kind
// check).
func (t *Tx) Enqueue(ctx context.Context, args jobs.JobArgs, opts *jobs.EnqueueOpts) (int64, error) {
	if t.queue == nil {
		return 0, ErrNoQueue
	}
	res, err := t.queue.client.InsertTx(ctx, t.tx, args, opts.InsertOpts())
	if err != nil {
		return 0, fmt.Errorf("store: enqueue %s: %w", args.Kind(), err)
	}
	return res.Job.ID, nil
}

func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := t.tx.ExecContext(ctx, query, args...)
	return res, t.classify(err)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	return rows, t.classify(err)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) row {
	return row{r: t.tx.QueryRowContext(ctx, query, args...), fail: t.db.d.Unavailable}
}

func (t *Tx) classify(err error) error { return t.db.d.Unavailable(err) }

// WriteTx runs fn in one write transaction, committing if fn returns nil
// and rolling back otherwise; fn writes through tx, never through the
// DB's own methods (on SQLite they would wait for the one connection fn
// holds). It returns fn's error, or [apperr.Unavailable] when the
// database is busy or cannot be reached.
func (db *DB) WriteTx(ctx context.Context, fn func(tx *Tx) error) error {
	return db.writeTx(ctx, nil, fn)
}

// WriteTx is [DB.WriteTx] whose transaction can also enqueue jobs
// ([Tx.Enqueue]).
func (q *Queue) WriteTx(ctx context.Context, fn func(tx *Tx) error) error {
	return q.db.writeTx(ctx, q, fn)
}

func (db *DB) writeTx(ctx context.Context, q *Queue, fn func(tx *Tx) error) error {
	return db.inTx(ctx, func(stx *sql.Tx) error {
		return fn(&Tx{tx: stx, db: db, now: db.clock(), queue: q})
	})
}
