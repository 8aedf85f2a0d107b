package sqlite

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/captionqa/captionqa/backend/blob"
)

// JobArgs is a job's arguments: a struct that encodes to JSON, with a
// Kind naming its worker. Domain packages declare their job types without
// knowing River (River's JobArgs is this same method set).
type JobArgs interface {
	Kind() string
}

// Workers is the set of job kinds a queue works; build it with
// [NewWorkers] and [Handle] before [DB.OpenQueue].
type Workers struct{ w *river.Workers }

// NewWorkers returns an empty set of workers.
func NewWorkers() *Workers { return &Workers{w: river.NewWorkers()} }

// Handle registers fn as the worker of T's kind. fn's error makes the
// job retried with backoff (River's default policy, 25 attempts); its ctx
// is canceled on a hard stop or after the job timeout (1 minute). It
// panics if T's kind is registered twice: a wiring bug.
func Handle[T JobArgs](ws *Workers, fn func(ctx context.Context, args T) error) {
	river.AddWorker(ws.w, river.WorkFunc(func(ctx context.Context, job *river.Job[T]) error {
		return fn(ctx, job.Args)
	}))
}

// HandleSnoozing registers fn as the worker of T's kind, for jobs that
// keep their own retry schedule: when fn returns again > 0 (and no
// error) the job runs again after again, without counting as a failed
// attempt (River's snooze). An error is a failed attempt, retried on
// River's policy. Like [Handle], it panics on a kind registered twice.
func HandleSnoozing[T JobArgs](ws *Workers, fn func(ctx context.Context, args T) (again time.Duration, err error)) {
	river.AddWorker(ws.w, river.WorkFunc(func(ctx context.Context, job *river.Job[T]) error {
		again, err := fn(ctx, job.Args)
		if err == nil && again > 0 {
			return river.JobSnooze(again)
		}
		return err
	}))
}

// HandleTimed is [Handle] for jobs that may run long: timeout gives each
// job's bound from its arguments (River's default is one minute).
func HandleTimed[T JobArgs](ws *Workers, timeout func(T) time.Duration, fn func(ctx context.Context, args T) error) {
	river.AddWorker(ws.w, &timedWorker[T]{fn: fn, timeout: timeout})
}

type timedWorker[T JobArgs] struct {
	river.WorkerDefaults[T]
	fn      func(ctx context.Context, args T) error
	timeout func(T) time.Duration
}

func (w *timedWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	return w.fn(ctx, job.Args)
}

func (w *timedWorker[T]) Timeout(job *river.Job[T]) time.Duration { return w.timeout(job.Args) }

// EnqueueOpts adjust one enqueued job; nil takes the defaults.
type EnqueueOpts struct {
	// ScheduledAt delays the job until then; zero runs it at once.
	ScheduledAt time.Time
	// MaxAttempts bounds retries (default 25).
	MaxAttempts int
	// UniqueByArgs skips the insert when a job of the same kind and args
	// is still pending or running.
	UniqueByArgs bool
	// Queue names the queue ([QueueOptions.Queues]); "" is the default.
	Queue string
}

func (o *EnqueueOpts) river() *river.InsertOpts {
	if o == nil {
		return nil
	}
	ro := &river.InsertOpts{ScheduledAt: o.ScheduledAt, MaxAttempts: o.MaxAttempts, Queue: o.Queue}
	if o.UniqueByArgs {
		ro.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	return ro
}

// sweepOrphanBlobs is the sweeper's job: no arguments, since what it
// sweeps is configured in the process.
type sweepOrphanBlobs struct{}

func (sweepOrphanBlobs) Kind() string { return sweepOrphanBlobsKind }

// sweeper works sweepOrphanBlobs jobs.
type sweeper struct {
	river.WorkerDefaults[sweepOrphanBlobs]
	opts SweepOptions
	now  func() time.Time
	log  *slog.Logger
}

func (w *sweeper) Work(ctx context.Context, _ *river.Job[sweepOrphanBlobs]) error {
	n, err := blob.Sweep(ctx, w.opts.Blobs, w.opts.Prefix, w.opts.OlderThan, w.now(), w.opts.Known)
	if err != nil {
		return fmt.Errorf("sqlite: sweep orphan blobs: %w", err)
	}
	if n > 0 {
		w.log.Info("deleted orphan blobs: bytes without a row", "prefix", w.opts.Prefix, "deleted", n)
	}
	return nil
}

// Timeout lets a sweep of a large store take longer than River's default
// minute.
func (w *sweeper) Timeout(*river.Job[sweepOrphanBlobs]) time.Duration { return defaultSweepTimeout }

// addSweeper registers the sweeper's worker in ws and returns its periodic
// job.
func addSweeper(ws *Workers, o *SweepOptions, now func() time.Time, log *slog.Logger) (*river.PeriodicJob, error) {
	opts := *o
	if opts.Blobs == nil || opts.Known == nil {
		return nil, fmt.Errorf("sqlite: sweeper: Blobs and Known are required")
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultSweepPrefix
	}
	if opts.Every <= 0 {
		opts.Every = DefaultSweepEvery
	}
	if opts.OlderThan <= 0 {
		opts.OlderThan = DefaultSweepOlder
	}
	if err := river.AddWorkerSafely(ws.w, &sweeper{opts: opts, now: now, log: log}); err != nil {
		return nil, fmt.Errorf("sqlite: sweeper: %w", err)
	}
	return river.NewPeriodicJob(river.PeriodicInterval(opts.Every),
		func() (river.JobArgs, *river.InsertOpts) {
			// One sweep pending at a time, however many processes enqueue.
			return sweepOrphanBlobs{}, &river.InsertOpts{UniqueOpts: onePending()}
		},
		&river.PeriodicJobOpts{ID: sweepOrphanBlobsKind, RunOnStart: true}), nil
}
