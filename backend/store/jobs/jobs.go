// Package jobs is the job queue's side that does not depend on the
// database: job arguments, the set of workers, enqueue options, periodic
// upkeep and the webhook delivery job. Both store adapters (sqlite,
// postgres) build River's client from it with their own driver, so the
// server registers its workers once whichever store it runs on. River's
// types stay here and in the adapters: handlers and domain code speak
// these.
package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// JobArgs is a job's arguments: a struct that encodes to JSON, with a
// Kind naming its worker. Domain packages declare their job types without
// knowing River (River's JobArgs is this same method set).
type JobArgs interface {
	Kind() string
}

// Workers is the set of job kinds a queue works; build it with
// [NewWorkers] and [Handle] before opening the queue.
type Workers struct{ w *river.Workers }

// NewWorkers returns an empty set of workers.
func NewWorkers() *Workers { return &Workers{w: river.NewWorkers()} }

// River returns River's set, for the store adapters' client.
func (ws *Workers) River() *river.Workers { return ws.w }

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

// InsertOpts are o as River's insert options (nil for nil).
func (o *EnqueueOpts) InsertOpts() *river.InsertOpts {
	if o == nil {
		return nil
	}
	ro := &river.InsertOpts{ScheduledAt: o.ScheduledAt, MaxAttempts: o.MaxAttempts, Queue: o.Queue}
	if o.UniqueByArgs {
		ro.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	return ro
}
