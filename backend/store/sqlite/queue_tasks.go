package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

const taskKind = "captionqa.task"

// onePending makes a periodic job unique while it waits or runs, across
// processes, and only then: a finished run (completed) does not block the
// next, so the run at each start happens even when the previous start's
// run completed a moment ago (River's default unique states include
// completed, which, with a period, skipped the start-up run of a quick
// restart: a sweep the crash needed).
func onePending() river.UniqueOpts {
	return river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{rivertype.JobStateAvailable,
		rivertype.JobStatePending, rivertype.JobStateRetryable, rivertype.JobStateRunning, rivertype.JobStateScheduled}}
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
		return fmt.Errorf("sqlite: task %s: %w", t.Name, err)
	}
	return nil
}

func (w *taskWorker) Timeout(*river.Job[taskArgs]) time.Duration { return defaultSweepTimeout }

// addTasks registers the tasks' worker in ws and returns their periodic
// jobs.
func addTasks(ws *Workers, tasks []Task) ([]*river.PeriodicJob, error) {
	w := &taskWorker{tasks: map[string]Task{}}
	var jobs []*river.PeriodicJob
	for _, t := range tasks {
		if t.Name == "" || t.Every <= 0 || t.Run == nil {
			return nil, fmt.Errorf("sqlite: task %q needs a name, a period and a function", t.Name)
		}
		if _, dup := w.tasks[t.Name]; dup {
			return nil, fmt.Errorf("sqlite: task %q given twice", t.Name)
		}
		w.tasks[t.Name] = t
		args, every := taskArgs{Name: t.Name}, t.Every
		jobs = append(jobs, river.NewPeriodicJob(river.PeriodicInterval(every),
			func() (river.JobArgs, *river.InsertOpts) {
				return args, &river.InsertOpts{UniqueOpts: onePending()}
			},
			&river.PeriodicJobOpts{ID: taskKind + ":" + t.Name, RunOnStart: true}))
	}
	if err := river.AddWorkerSafely(ws.w, w); err != nil {
		return nil, fmt.Errorf("sqlite: tasks: %w", err)
	}
	return jobs, nil
}
