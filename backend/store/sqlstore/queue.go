package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// The job queue is River (github.com/riverqueue/river) on the store's
// database, through the driver the engine gives ([Engine.River]): its
// InsertTx takes the store's *sql.Tx, so a job enqueued with the writes
// that call for it (an export and its webhook delivery, a video job and
// its run) commits with them or not at all. Callers see [Queue],
// [jobs.Workers], [jobs.JobArgs], [jobs.EnqueueOpts] and [Tx].

// Queue is the job queue: River's client on this database. Use
// [DB.OpenQueue], then [Queue.Start] to work jobs, [Queue.Stop] before
// closing the DB.
type Queue struct {
	db     *DB
	client *river.Client[*sql.Tx]
	log    *slog.Logger
	works  bool // has workers: Start and Stop do something
}

// OpenQueue migrates River's tables in this database (processes starting
// together take turns) and returns the queue, not started. Errors are
// internal failures, or [apperr.Unavailable] when the database is busy
// or cannot be reached.
func (db *DB) OpenQueue(ctx context.Context, opts jobs.QueueOptions) (*Queue, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = db.now
	}
	driver, pollOnly := db.eng.River()
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("store: river migrator: %w", err)
	}
	if err := db.eng.MigrateRiver(ctx, migrator); err != nil {
		return nil, db.d.Unavailable(fmt.Errorf("store: migrate river: %w", err))
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
		return nil, fmt.Errorf("store: %w", err)
	}
	cfg.PollOnly = pollOnly
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: river client: %w", err)
	}
	q.client, q.works = client, works
	return q, nil
}

// Start starts working jobs (a queue without workers only inserts; Start
// is then a no-op) and the periodic upkeep. The workers run until
// [Queue.Stop], not until ctx ends: ctx bounds only the start.
func (q *Queue) Start(ctx context.Context) error {
	if !q.works {
		return nil
	}
	// River stops its client when its start context is done; Stop is how
	// this one ends, in the order Run chooses.
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("store: start queue: %w", err)
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
		return fmt.Errorf("store: %w", err)
	}
	return nil
}
