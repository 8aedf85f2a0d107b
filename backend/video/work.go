package video

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Heartbeat is how often a running job records its progress and
// heartbeat, and so how soon a cancel from another process reaches it.
const Heartbeat = time.Second

// StaleAfter is the default of Options.StaleAfter, when a running job
// whose heartbeat stopped is taken for one whose process died: many
// heartbeats, so a slow disk or a busy writer never passes for a death.
const StaleAfter = 30 * time.Second

// PerAccount is the default of Options.PerAccount: one running job per
// account, so that one account's batch cannot fill the lanes.
const PerAccount = 1

// AccountWait is how long a job whose account is at Options.PerAccount
// waits before it asks again.
const AccountWait = time.Second

// WaitError is what [Service.Work] returns for a job that must wait (its
// account has Options.PerAccount jobs running): the queue runs it again
// After, without counting a failed attempt or holding a worker.
type WaitError struct{ After time.Duration }

func (e *WaitError) Error() string {
	return fmt.Sprintf("video: the account's jobs are running; again in %s", e.After)
}

// MaxRuns bounds how often a job is run again after its process died:
// media that kills the process each time fails instead of looping.
const MaxRuns = 3

// Work runs one run of a job, for the job queue. A run the job is no
// longer in (canceled, or rescued into a newer run) does nothing. The
// outcome is recorded on the job, so Work returns nil for a failed job
// too; it returns an error only when ctx ended because the process is
// stopping: the job is then queued again, and the queue retries it.
func (s *Service) Work(ctx context.Context, args WorkArgs) error {
	j, err := s.o.Store.JobByID(ctx, args.JobID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil // its account was deleted
	}
	if err != nil {
		return err
	}
	if j.Run != args.Run || j.Status != Queued {
		return nil
	}
	if !s.accounts.Enter(j.AccountID) {
		return &WaitError{After: AccountWait}
	}
	defer s.accounts.Leave(j.AccountID)
	ok, err := s.o.Store.StartRun(ctx, j.ID, j.Run, s.now())
	if err != nil || !ok {
		return err
	}
	j.Status = Running
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.mu.Lock()
	s.running[j.ID] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, j.ID)
		s.mu.Unlock()
	}()
	beat := newBeat(s, j)
	stopBeat := beat.start(runCtx, cancel)
	produce := s.produce
	switch j.Kind {
	case KindExtract:
		produce = s.produceExtract
	case KindAnalyze:
		produce = s.produceAnalysis
	}
	out, err := produce(runCtx, j, beat.set)
	stopBeat()
	return s.finish(ctx, runCtx, j, time.Duration(args.TimeoutSeconds)*time.Second, out, err)
}

// finish records a run's outcome; limit is the run's timeout.
func (s *Service) finish(ctx, runCtx context.Context, j *Job, limit time.Duration, out *produced, err error) error {
	switch {
	case err == nil && j.Kind == KindExtract:
		err = s.storeExtract(ctx, j, out)
	case err == nil && j.Kind == KindAnalyze:
		err = s.storeAnalysis(ctx, j, out)
	case err == nil:
		err = s.store(ctx, j, out)
	}
	if out != nil {
		out.close()
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(context.Cause(runCtx), errCanceled):
		return nil // recorded by Cancel
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return s.fail(j, JobError{Code: ErrCodeTimeout, Message: fmt.Sprintf("the job ran longer than its limit of %s", limit.Round(time.Second))})
	case ctx.Err() != nil:
		// The process is stopping: the job waits for the next start.
		if _, rerr := s.o.Store.Requeue(context.WithoutCancel(ctx), j.ID, j.Run); rerr != nil {
			return errors.Join(ctx.Err(), rerr)
		}
		return ctx.Err()
	}
	return s.fail(j, jobError(err))
}

func (s *Service) fail(j *Job, jerr JobError) error {
	// A fresh context: the run's may be over, the outcome must be kept.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.o.Store.Fail(ctx, j.ID, j.Run, jerr, s.now()); err != nil {
		return fmt.Errorf("video: record failure of job %s: %w", j.ID, err)
	}
	s.o.Logger.Info("video job failed", "job", j.ID, "mode", j.Mode, "code", jerr.Code, "message", jerr.Message)
	return nil
}

// jobError words a run's failure for the job's error.
func jobError(err error) JobError {
	var run *RunError
	if errors.As(err, &run) && run.OutOfMemory {
		return JobError{Code: ErrCodeMemoryLimit, Message: "the job went over the memory limit of its process (ffmpeg or tesseract): " + lastLines(run.Stderr, 2)}
	}
	if errors.As(err, &run) {
		return JobError{Code: ErrCodeFFmpeg, Message: "ffmpeg failed: " + lastLines(run.Stderr, 3)}
	}
	if ae, ok := apperr.As(err); ok {
		code := ae.Code()
		if r, ok := ae.Details["jobError"].(string); ok {
			code = r
		}
		if ae.Details["reason"] == ErrCodeStorageQuota {
			code = ErrCodeStorageQuota
		}
		return JobError{Code: code, Message: ae.Message}
	}
	return JobError{Code: "internal_error", Message: "the job failed on the server; see its log"}
}

// lastLines returns the last n non-empty lines of s, joined by "; ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 0 {
		return "no message"
	}
	return strings.Join(lines, "; ")
}

// Rescue runs again the jobs whose process died mid-run (no heartbeat for
// Options.StaleAfter), up to [MaxRuns] runs; a job past them fails with
// "interrupted". It is the job queue's periodic task, and runs at each
// start. It returns how many jobs it moved.
func (s *Service) Rescue(ctx context.Context) (int, error) {
	jerr := JobError{Code: ErrCodeInterrupted, Message: fmt.Sprintf("the job was cut off %d times (the server stopped while it ran)", MaxRuns)}
	n, err := s.o.Store.Rescue(ctx, s.now().Add(-s.o.StaleAfter), MaxRuns, jerr, s.now(), workArgs)
	if n > 0 {
		s.o.Logger.Warn("video jobs a stopped process cut off are queued again or failed", "jobs", n)
	}
	return n, err
}
