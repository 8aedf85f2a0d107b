package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/captionqa/captionqa/backend/blob"
)

const (
	taskKind             = "captionqa.task"
	sweepOrphanBlobsKind = "captionqa.sweep_orphan_blobs"
)

// onePending makes a periodic job unique while it waits or runs, across
// processes, within one period: a finished run (completed) does not block
// the next, so the run at each start happens even when the previous
// start's run completed a moment ago (River's default unique states
// include completed, which, with a period, skipped the start-up run of a
// quick restart: a sweep the crash needed). The period bounds what a run
// left "running" by a node killed mid-task blocks: River counts running
// among the unique states, and without the period such a job would keep
// every node from scheduling the task until River rescues it
// ([RescueAfter]); with it, the next period's run goes ahead.
func onePending(every time.Duration) river.UniqueOpts {
	return river.UniqueOpts{ByArgs: true, ByPeriod: every, ByState: []rivertype.JobState{rivertype.JobStateAvailable,
		rivertype.JobStatePending, rivertype.JobStateRetryable, rivertype.JobStateRunning, rivertype.JobStateScheduled}}
}

// upkeepOpts are the insert options of a periodic job of period every.
func upkeepOpts(every time.Duration) *river.InsertOpts {
	return &river.InsertOpts{Queue: UpkeepQueue, UniqueOpts: onePending(every)}
}

// AddPeriodic registers fn as the worker of args' kind in ws and returns
// its periodic job: every every and once at the start, in [UpkeepQueue],
// one run pending at a time across processes, each bounded by
// [UpkeepTimeout]. The store
// adapters add their own upkeep with it (pruning and rescuing webhook
// deliveries).
func AddPeriodic[T JobArgs](ws *Workers, args T, every time.Duration, fn func(ctx context.Context) error) (*river.PeriodicJob, error) {
	if err := river.AddWorkerSafely(ws.w, &periodicWorker[T]{fn: fn}); err != nil {
		return nil, fmt.Errorf("jobs: periodic %s: %w", args.Kind(), err)
	}
	return river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) {
			return args, upkeepOpts(every)
		},
		&river.PeriodicJobOpts{ID: args.Kind(), RunOnStart: true}), nil
}

type periodicWorker[T JobArgs] struct {
	river.WorkerDefaults[T]
	fn func(ctx context.Context) error
}

func (w *periodicWorker[T]) Work(ctx context.Context, _ *river.Job[T]) error { return w.fn(ctx) }

func (w *periodicWorker[T]) Timeout(*river.Job[T]) time.Duration { return UpkeepTimeout }

// sweepOrphanBlobs is the sweeper's job: no arguments, since what it
// sweeps is configured in the process.
type sweepOrphanBlobs struct{}

func (sweepOrphanBlobs) Kind() string { return sweepOrphanBlobsKind }

// addSweeper registers the orphan-blob sweeper in ws and returns its
// periodic job.
func addSweeper(ws *Workers, o *SweepOptions, now func() time.Time, log *slog.Logger) (*river.PeriodicJob, error) {
	opts := *o
	if opts.Blobs == nil || opts.Known == nil {
		return nil, fmt.Errorf("jobs: sweeper: Blobs and Known are required")
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
	return AddPeriodic(ws, sweepOrphanBlobs{}, opts.Every, func(ctx context.Context) error {
		n, err := blob.Sweep(ctx, opts.Blobs, opts.Prefix, opts.OlderThan, now(), opts.Known)
		if err != nil {
			return fmt.Errorf("jobs: sweep orphan blobs: %w", err)
		}
		if n > 0 {
			log.Info("deleted orphan blobs: bytes without a row", "prefix", opts.Prefix, "deleted", n)
		}
		return nil
	})
}

// taskArgs names the [Task] a periodic job runs: one job kind for every
// task, since what a task does is a function of this process.
type taskArgs struct {
	Name string `json:"name"`
}

func (taskArgs) Kind() string { return taskKind }

// taskWorker runs the task its job names.
type taskWorker struct {
	river.WorkerDefaults[taskArgs]
	tasks map[string]Task
}

func (w *taskWorker) Work(ctx context.Context, job *river.Job[taskArgs]) error {
	t, ok := w.tasks[job.Args.Name]
	if !ok {
		// Enqueued by a process with a task this one lacks: not ours.
		return nil
	}
	if err := t.Run(ctx); err != nil {
		return fmt.Errorf("jobs: task %s: %w", t.Name, err)
	}
	return nil
}

func (w *taskWorker) Timeout(*river.Job[taskArgs]) time.Duration { return UpkeepTimeout }

// addTasks registers the tasks' worker in ws and returns their periodic
// jobs.
func addTasks(ws *Workers, tasks []Task) ([]*river.PeriodicJob, error) {
	w := &taskWorker{tasks: map[string]Task{}}
	var jobs []*river.PeriodicJob
	for _, t := range tasks {
		if t.Name == "" || t.Every <= 0 || t.Run == nil {
			return nil, fmt.Errorf("jobs: task %q needs a name, a period and a function", t.Name)
		}
		if _, dup := w.tasks[t.Name]; dup {
			return nil, fmt.Errorf("jobs: task %q given twice", t.Name)
		}
		w.tasks[t.Name] = t
		args, every := taskArgs{Name: t.Name}, t.Every
		jobs = append(jobs, river.NewPeriodicJob(river.PeriodicInterval(every),
			func() (river.JobArgs, *river.InsertOpts) {
				return args, upkeepOpts(every)
			},
			&river.PeriodicJobOpts{ID: taskKind + ":" + t.Name, RunOnStart: true}))
	}
	if err := river.AddWorkerSafely(ws.w, w); err != nil {
		return nil, fmt.Errorf("jobs: tasks: %w", err)
	}
	return jobs, nil
}
