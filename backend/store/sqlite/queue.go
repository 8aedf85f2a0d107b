package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/blob"
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

// Defaults of [QueueOptions] and [SweepOptions].
const (
	DefaultMaxWorkers   = 4
	DefaultPollInterval = time.Second
	DefaultSweepEvery   = 10 * time.Minute
	DefaultSweepOlder   = time.Hour
	DefaultSweepPrefix  = "artifacts/"
	defaultSweepTimeout = 10 * time.Minute
	// rescueAfter is when a job still running is taken for the job of a
	// process that died (kill -9, power loss) and run again: above the
	// longest job timeout (the sweep's), well below River's default hour,
	// so a webhook delivery interrupted by a crash goes out soon after
	// the next start.
	rescueAfter          = 15 * time.Minute
	defaultQueueName     = river.QueueDefault
	sweepOrphanBlobsKind = "captionqa.sweep_orphan_blobs"
)

// QueueOptions configure [DB.OpenQueue].
type QueueOptions struct {
	// Logger receives River's logs; nil discards them.
	Logger *slog.Logger
	// Now is the clock the sweeper dates objects by; nil is the DB's.
	Now func() time.Time
	// Workers are the job kinds this process works; nil works only the
	// sweeper (if any). A queue with neither only inserts jobs.
	Workers *Workers
	// MaxWorkers bounds the jobs worked at once (default 4).
	MaxWorkers int
	// PollInterval is how often an idle queue looks for new jobs: SQLite
	// has no LISTEN/NOTIFY (default 1 s; a job inserted by this process
	// wakes it at once; at least 100 ms, River's fetch cooldown).
	PollInterval time.Duration
	// Sweep, if set, runs the orphan-blob sweeper as a periodic job.
	Sweep *SweepOptions
	// KeepDeliveries, if set, deletes every hour the webhook deliveries
	// that are no longer pending and were created longer ago than this.
	KeepDeliveries time.Duration
	// RescueDeliveriesAfter, if set, restarts every minute the pending
	// webhook deliveries whose job has been running longer than this: a
	// process that died mid-attempt (see addDeliveryRescuer). It must
	// exceed the delivery job's timeout.
	RescueDeliveriesAfter time.Duration
	// Queues are named queues beside the default one, each with the most
	// jobs it works at once (the video lanes); a job goes to one with
	// [EnqueueOpts.Queue].
	Queues map[string]int
	// Tasks run periodically on one process at a time, and once when the
	// queue starts (the media sweeper, the video job rescuer).
	Tasks []Task
}

// Task is a periodic piece of upkeep: Run every Every (and once at the
// start, when what a crash left is found), with at most one run pending
// across processes. Its ctx ends after 10 minutes.
type Task struct {
	// Name identifies the task across processes and restarts.
	Name  string
	Every time.Duration
	Run   func(ctx context.Context) error
}

// SweepOptions configure the orphan-blob sweeper: every Every it deletes
// the objects under Prefix older than OlderThan that Known does not
// report ([blob.Sweep]): bytes whose row never committed, after a crash
// between a put and its transaction. It also runs once when the queue
// starts, since a crash is when orphans appear.
type SweepOptions struct {
	Blobs blob.Store
	// Known reports which keys a row refers to; the composition root
	// hands in the artifact store's lookup.
	Known blob.Known
	// Prefix is the part of the store swept (default "artifacts/").
	Prefix string
	// Every is the period (default 10 minutes).
	Every time.Duration
	// OlderThan protects objects whose row is not committed yet (default
	// 1 hour, far above any put-then-commit).
	OlderThan time.Duration
}

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
func (db *DB) OpenQueue(ctx context.Context, opts QueueOptions) (*Queue, error) {
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
	cfg := &river.Config{
		Logger:            log,
		FetchPollInterval: opts.PollInterval,
		// SQLite has no LISTEN/NOTIFY; River polls.
		PollOnly:             true,
		RescueStuckJobsAfter: rescueAfter,
	}
	if cfg.FetchPollInterval <= 0 {
		cfg.FetchPollInterval = DefaultPollInterval
	}
	workers := opts.Workers
	if opts.Sweep != nil {
		if workers == nil {
			workers = NewWorkers()
		}
		job, err := addSweeper(workers, opts.Sweep, now, log)
		if err != nil {
			return nil, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, job)
	}
	if opts.KeepDeliveries > 0 {
		if workers == nil {
			workers = NewWorkers()
		}
		job, err := addDeliveryPruner(workers, db, opts.KeepDeliveries, now)
		if err != nil {
			return nil, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, job)
	}
	q := &Queue{db: db, log: log}
	if opts.RescueDeliveriesAfter > 0 {
		if workers == nil {
			workers = NewWorkers()
		}
		job, err := addDeliveryRescuer(workers, q, opts.RescueDeliveriesAfter, now)
		if err != nil {
			return nil, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, job)
	}
	if len(opts.Tasks) > 0 {
		if workers == nil {
			workers = NewWorkers()
		}
		jobs, err := addTasks(workers, opts.Tasks)
		if err != nil {
			return nil, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, jobs...)
	}
	if workers != nil {
		max := opts.MaxWorkers
		if max <= 0 {
			max = DefaultMaxWorkers
		}
		cfg.Workers = workers.w
		cfg.Queues = map[string]river.QueueConfig{defaultQueueName: {MaxWorkers: max}}
		for name, n := range opts.Queues {
			cfg.Queues[name] = river.QueueConfig{MaxWorkers: n}
		}
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("sqlite: river client: %w", err)
	}
	q.client, q.works = client, workers != nil
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
	err := q.client.Stop(ctx)
	if err == nil {
		return nil
	}
	if ctx.Err() == nil {
		return fmt.Errorf("sqlite: stop queue: %w", err)
	}
	q.log.Warn("jobs still running at the shutdown bound: canceling them; they will be retried")
	hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if herr := q.client.StopAndCancel(hard); herr != nil {
		return fmt.Errorf("sqlite: stop queue: %w", errors.Join(err, herr))
	}
	return nil
}
