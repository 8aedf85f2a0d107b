package postgres

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// The job queue is River (github.com/riverqueue/river) on this database,
// through its riverpgxv5 driver on the store's pool. Every node runs a
// client: each fetches available jobs with FOR UPDATE SKIP LOCKED, so a
// job is worked by one node, and is woken by LISTEN/NOTIFY when a job is
// inserted (polling at [jobs.QueueOptions.PollInterval] only as a
// fallback). One node at a time is River's leader and runs its
// maintenance and the periodic jobs' scheduling. River holds one pool
// connection for LISTEN: the pool needs at least two.

// Queue is the job queue: River's client on this database. Use
// [DB.OpenQueue], then [Queue.Start] to work jobs, [Queue.Stop] before
// closing the DB.
type Queue struct {
	db     *DB
	client *river.Client[pgx.Tx]
	log    *slog.Logger
	works  bool // has workers: Start and Stop do something
}

// OpenQueue migrates River's tables in this database (under the advisory
// lock the store's own migrations take, so nodes starting together take
// turns) and returns the queue, not started. Errors are internal
// failures, or [apperr.Unavailable] when the database cannot be reached.
func (db *DB) OpenQueue(ctx context.Context, opts jobs.QueueOptions) (*Queue, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = db.now
	}
	driver := riverpgxv5.New(db.pool)
	if err := db.migrateRiver(ctx, driver, log); err != nil {
		return nil, err
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
		return nil, fmt.Errorf("postgres: %w", err)
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: river client: %w", err)
	}
	q.client, q.works = client, works
	return q, nil
}

// migrateRiver applies River's pending migrations while holding
// [migrationLock] on one connection. River applies each migration in a
// transaction of its own on another connection of the pool: its
// MigrateTx, which would run them all in one, fails on a fresh database
// (a migration uses an enum value an earlier one adds, which Postgres
// allows only once that one has committed).
func (db *DB) migrateRiver(ctx context.Context, driver *riverpgxv5.Driver, log *slog.Logger) error {
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: log})
	if err != nil {
		return fmt.Errorf("postgres: river migrator: %w", err)
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: migrate river: %w", err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return unavailable(fmt.Errorf("postgres: migration lock: %w", err))
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
	}()
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return unavailable(fmt.Errorf("postgres: migrate river: %w", err))
	}
	return nil
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
		return fmt.Errorf("postgres: start queue: %w", err)
	}
	return nil
}

// Stop stops fetching jobs and waits for the running ones to finish; when
// ctx ends first it cancels them (a canceled job is retried later, by
// this node's next start or another node: a long video render is handed
// back this way, which is the expected end of a shutdown, not a failure)
// and waits for them to return. Stopping a queue that was not started is
// a no-op. It returns an error only when the jobs could not be stopped.
func (q *Queue) Stop(ctx context.Context) error {
	if !q.works {
		return nil
	}
	if err := jobs.Stop(ctx, q.client, q.log); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return nil
}
