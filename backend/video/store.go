package video

import (
	"context"
	"errors"
	"time"

	"github.com/captionqa/captionqa/backend/project"
)

// ErrPoolFull is returned, wrapped, by [Store.CreateJob] when the daily
// pool has no run left: nothing was inserted.
var ErrPoolFull = errors.New("video: daily pool full")

// WorkKind is the job queue's kind for the work of a video job.
const WorkKind = "captionqa.video_job"

// WorkArgs are the queued work of one run of a job.
type WorkArgs struct {
	JobID string `json:"jobId"`
	Run   int    `json:"run"`
	// TimeoutSeconds bounds the run (see [Timeout]).
	TimeoutSeconds int `json:"timeoutSeconds"`
}

// Kind names the worker of WorkArgs.
func (WorkArgs) Kind() string { return WorkKind }

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error; a job of another account is [apperr.NotFound],
// as an unknown one is. Methods that move a run's state take the run and
// change nothing (ok false) when the job is no longer in that run's
// state: it was canceled, or rescued into a newer run.
type Store interface {
	// CreateJob inserts j (queued, run 1), takes one run of count's pool
	// and enqueues args in j's lane, in one transaction; when the pool is
	// full it inserts nothing and returns an error wrapping
	// [ErrPoolFull]. It returns the pool's new count.
	CreateJob(ctx context.Context, j *Job, count project.RunCount, args WorkArgs) (used int, err error)
	// Job returns the account's job with its artifacts, or
	// [apperr.NotFound].
	Job(ctx context.Context, accountID, id string) (*Job, error)
	// JobByID returns the job whoever owns it, or [apperr.NotFound].
	JobByID(ctx context.Context, id string) (*Job, error)
	// ListJobs returns up to limit of the account's jobs for the project
	// (of mode alone unless it is ""), newest first.
	ListJobs(ctx context.Context, accountID, projectID, mode string, limit int) ([]Job, error)
	// StartRun moves run of a queued job to running at at.
	StartRun(ctx context.Context, id string, run int, at time.Time) (ok bool, err error)
	// Beat records a running run's progress and heartbeat.
	Beat(ctx context.Context, id string, run int, progress float64, at time.Time) (ok bool, err error)
	// Succeed ends a running run: j's Output, OutputType and FinishedAt,
	// and e (its artifacts) inserted, in one transaction.
	Succeed(ctx context.Context, j *Job, e *project.Export) (ok bool, err error)
	// SucceedAnalysis ends a running analyze run: a kept as its media's
	// analysis (replacing an older one) and j's FinishedAt, in one
	// transaction; [account.StorageFull] when a does not fit the
	// account's storage quota.
	SucceedAnalysis(ctx context.Context, j *Job, a *StoredAnalysis) (ok bool, err error)
	// Fail ends a running run as failed with jerr, giving its run of the
	// daily pool back, in one transaction.
	Fail(ctx context.Context, id string, run int, jerr JobError, at time.Time) (ok bool, err error)
	// Requeue moves a running run back to queued (its process is
	// stopping; the queue runs it again).
	Requeue(ctx context.Context, id string, run int) (ok bool, err error)
	// Cancel moves the account's queued or running job to canceled,
	// giving its run of the pool back, and returns it; [apperr.NotFound],
	// or [apperr.Conflict] (details.reason "job_finished",
	// details.status) when it is final.
	Cancel(ctx context.Context, accountID, id string, at time.Time) (*Job, error)
	// Rescue finds the running jobs whose heartbeat is older than cutoff
	// (their process died): those under maxRuns go back to queued as a
	// new run with new work (args from work) enqueued, the others fail
	// with jerr (their run given back). It returns how many it moved.
	Rescue(ctx context.Context, cutoff time.Time, maxRuns int, jerr JobError, at time.Time, work func(*Job) WorkArgs) (int, error)
	// Ahead returns the queued and running jobs of lane created before
	// j, oldest first.
	Ahead(ctx context.Context, j *Job) ([]Job, error)
	// Speeds returns, per mode, the median of media seconds worked per
	// wall second over the last 20 succeeded jobs that had media.
	Speeds(ctx context.Context) (map[string]float64, error)
}
