package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// The job queue is River (github.com/riverqueue/river) on this database's
// file, through its riversqlite driver. Its types stay in this package:
// River needs the *sql.DB and *sql.Tx that only the store may hold, and
// a Postgres adapter will swap riversqlite for riverpgxv5 behind the same
// methods. Callers see [Queue], [Workers], [Handle], [JobArgs],
// [EnqueueOpts] and [Tx].
//
// River shares the one writer connection with the store's writes (the
// driver asks for SetMaxOpenConns(1), which the write pool has): every
// River statement (fetching jobs, completing them, leader election,
// maintenance) and every store write take turns on that connection, so
// River never meets SQLITE_BUSY from this process, and an InsertTx in a
// store transaction is the same transaction. What it costs is measured in
// queue_bench_test.go (BenchmarkWriteTxBesideQueue): an idle queue
// polling every second costs the store's writes nothing measurable; a job
// enqueued and worked costs about 5 extra writer turns.

// Queue is the job queue: River's client on this database. Use
// [DB.OpenQueue], then [Queue.Start] to work jobs, [Queue.Stop] before
// closing the DB.
type Queue struct {
	db     *DB
	client *river.Client[*sql.Tx]
	log    *slog.Logger
	works  bool // has workers: Start and Stop do something
}

// OpenQueue migrates River's tables in this database (in one write
// transaction, so two processes starting at once take turns) and returns
// the queue, not started. Errors are internal failures, or
// [apperr.Unavailable] if another process holds the write lock past the
// busy timeout.
func (db *DB) OpenQueue(ctx context.Context, opts jobs.QueueOptions) (*Queue, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = db.now
	}
	driver := riversqlite.New(db.write.DB)
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("sqlite: river migrator: %w", err)
	}
	if err := db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := migrator.MigrateTx(ctx, tx, rivermigrate.DirectionUp, nil)
		return err
	}); err != nil {
		return nil, fmt.Errorf("sqlite: migrate river: %w", err)
	}
	q := &Queue{db: db, log: log}
	var upkeep []jobs.Upkeep
	if opts.KeepDeliveries > 0 {
		upkeep = append(upkeep, func(ws *jobs.Workers) (*river.PeriodicJob, error) {
			return addDeliveryPruner(ws, db, opts.KeepDeliveries, now)
		})
	}
	if opts.RescueDeliveriesAfter > 0 {
		upkeep = append(upkeep, func(ws *jobs.Workers) (*river.PeriodicJob, error) {
			return addDeliveryRescuer(ws, q, opts.RescueDeliveriesAfter, now)
		})
	}
	cfg, works, err := jobs.Config(opts, now, log, upkeep...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// SQLite has no LISTEN/NOTIFY; River polls.
	cfg.PollOnly = true
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("sqlite: river client: %w", err)
	}
	q.client, q.works = client, works
	return q, nil
}

// Start starts working jobs (a queue without workers only inserts; Start
// is then a no-op) and the periodic sweeper. The workers run until
// [Queue.Stop], not until ctx ends: ctx bounds only the start.
func (q *Queue) Start(ctx context.Context) error {
	if !q.works {
		return nil
	}
	// River stops its client when its start context is done; Stop is how
	// this one ends, in the order Run chooses.
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("sqlite: start queue: %w", err)
	}
	return nil
}

// Stop stops fetching jobs and waits for the running ones to finish; when
// ctx ends first it cancels them (a canceled job is retried later, by
// this process's next start or another's: a long video render is handed
// back this way, which is the expected end of a shutdown, not a failure)
// and waits for them to return. Stopping a queue that was not started is
// a no-op. It returns an error only when the jobs could not be stopped.
func (q *Queue) Stop(ctx context.Context) error {
	if !q.works {
		return nil
	}
	if err := jobs.Stop(ctx, q.client, q.log); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return nil
}
