package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// Upkeep is an adapter's own periodic job: it registers its worker in
// the set it is given and returns the job.
type Upkeep func(ws *Workers) (*river.PeriodicJob, error)

// Config builds River's client configuration from opts: the workers, the
// sweeper, the tasks and the adapter's upkeep, the default queue, the
// delivery and upkeep queues ([WebhookQueue], [UpkeepQueue]) and the
// named ones. works reports whether the client works jobs (else it only
// inserts: no workers, no periodic jobs). now is the clock for the
// sweeper when opts.Now is nil; the caller sets driver-specific fields
// (PollOnly on SQLite).
func Config(opts QueueOptions, now func() time.Time, log *slog.Logger, upkeep ...Upkeep) (cfg *river.Config, works bool, err error) {
	if opts.Now != nil {
		now = opts.Now
	}
	cfg = &river.Config{Logger: log, FetchPollInterval: opts.PollInterval, RescueStuckJobsAfter: RescueAfter}
	if cfg.FetchPollInterval <= 0 {
		cfg.FetchPollInterval = DefaultPollInterval
	}
	workers := opts.Workers
	need := func() *Workers {
		if workers == nil {
			workers = NewWorkers()
		}
		return workers
	}
	if opts.Sweep != nil {
		job, err := addSweeper(need(), opts.Sweep, now, log)
		if err != nil {
			return nil, false, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, job)
	}
	for _, u := range upkeep {
		job, err := u(need())
		if err != nil {
			return nil, false, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, job)
	}
	if len(opts.Tasks) > 0 {
		jobs, err := addTasks(need(), opts.Tasks)
		if err != nil {
			return nil, false, err
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, jobs...)
	}
	if workers == nil {
		return cfg, false, nil
	}
	n := opts.MaxWorkers
	if n <= 0 {
		n = DefaultMaxWorkers
	}
	cfg.Workers = workers.w
	// The delivery and upkeep queues are worked whatever the workers:
	// a node works every queue a job of its kinds may be in, and which
	// queue a job goes to is fixed at insert, on any node, API-only ones
	// too ([WebhookJobOpts], [AddPeriodic]).
	cfg.Queues = map[string]river.QueueConfig{DefaultQueue: {MaxWorkers: n},
		WebhookQueue: {MaxWorkers: WebhookWorkers}, UpkeepQueue: {MaxWorkers: UpkeepWorkers}}
	for name, n := range opts.Queues {
		cfg.Queues[name] = river.QueueConfig{MaxWorkers: n}
	}
	return cfg, true, nil
}

// Client is what [Stop] needs of River's client, whatever its driver.
type Client interface {
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
}

// Stop stops fetching jobs and waits for the running ones to finish; when
// ctx ends first it cancels them (a canceled job is retried later, by
// this process's next start or another's: a long video render is handed
// back this way, which is the expected end of a shutdown, not a failure)
// and waits for them to return. It returns an error only when the jobs
// could not be stopped.
func Stop(ctx context.Context, c Client, log *slog.Logger) error {
	err := c.Stop(ctx)
	if err == nil {
		return nil
	}
	if ctx.Err() == nil {
		return fmt.Errorf("stop queue: %w", err)
	}
	log.Warn("jobs still running at the shutdown bound: canceling them; they will be retried")
	hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if herr := c.StopAndCancel(hard); herr != nil {
		return fmt.Errorf("stop queue: %w", errors.Join(err, herr))
	}
	return nil
}
