package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/video"
)

// VideoStore keeps video jobs. It is the queue's: accepting a job and
// running it again after a crash enqueue its work in the same
// transaction. Its methods may return [apperr.Unavailable]
// (details.retryAfterSeconds) when the database is busy or cannot be
// reached.
type VideoStore struct{ q *Queue }

var _ video.Store = (*VideoStore)(nil)

// Videos returns the store of video jobs.
func (q *Queue) Videos() *VideoStore { return &VideoStore{q: q} }

// videoMaxAttempts bounds the queue's retries of one run: a run only
// errs when its process stops (the job went back to queued), so this
// only caps restarts in a row.
const videoMaxAttempts = 10

const jobColumns = `id, account_id, project_id, kind, mode, preset, fix_profile, output_delivery, media_key, container,
	subtitle_codec, language, ir_revision, media_seconds, status, progress, run, created_at, started_at, finished_at,
	heartbeat_at, error_code, error_message, output, output_type, export_id, pool, pool_day, track_index, result_revision`

// errRunGone rolls back a transaction whose run is no longer current.
var errRunGone = errors.New("store: job run gone")

// CreateJob inserts j, takes one run of count's pool and enqueues args
// in j's lane, in one transaction. A full pool is an error wrapping
// [video.ErrPoolFull]; an unknown account is [apperr.NotFound].
func (s *VideoStore) CreateJob(ctx context.Context, j *video.Job, count project.RunCount, args video.WorkArgs) (int, error) {
	var used int
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		u, ok, err := tx.TakeRun(ctx, count)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("store: create job %s: %w", j.ID, video.ErrPoolFull)
		}
		used = u
		db := s.q.db
		_, err = tx.exec(ctx, `INSERT INTO video_jobs(id, account_id, project_id, kind, mode, preset, fix_profile,
			output_delivery, media_key, container, subtitle_codec, language, ir_revision, media_seconds, status, run,
			created_at, pool, pool_day, track_index)
			VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'queued', $15, $16, $17, $18, $19)`,
			j.ID, j.AccountID, j.ProjectID, string(j.Kind), j.Mode, j.Preset, j.FixProfile, j.OutputDelivery, j.MediaKey,
			j.Container, j.SubtitleCodec, j.Language, j.IRRevision, j.MediaSeconds, j.Run, db.ts(j.CreatedAt),
			j.Pool, db.d.Day(j.PoolDay), j.TrackIndex)
		switch {
		case db.d.ForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("store: create job %s: %w", j.ID, err)
		}
		return enqueueRun(ctx, tx, j, args)
	})
	return used, err
}

func enqueueRun(ctx context.Context, tx *Tx, j *video.Job, args video.WorkArgs) error {
	_, err := tx.Enqueue(ctx, args, &jobs.EnqueueOpts{Queue: string(video.LaneOf(j)), MaxAttempts: videoMaxAttempts})
	return err
}

// Job returns the account's job with its artifacts, or [apperr.NotFound].
func (s *VideoStore) Job(ctx context.Context, accountID, id string) (*video.Job, error) {
	return s.one(ctx, `WHERE id = $1 AND account_id = $2`, id, accountID)
}

// JobByID returns the job whoever owns it, or [apperr.NotFound].
func (s *VideoStore) JobByID(ctx context.Context, id string) (*video.Job, error) {
	return s.one(ctx, `WHERE id = $1`, id)
}

func (s *VideoStore) one(ctx context.Context, where string, args ...any) (*video.Job, error) {
	jobs, err := s.list(ctx, where, args...)
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, apperr.New(apperr.NotFound, "job not found")
	}
	return &jobs[0], nil
}

// ListJobs returns up to limit of the account's jobs for the project (of
// mode alone unless it is ""), newest first, with their artifacts.
func (s *VideoStore) ListJobs(ctx context.Context, accountID, projectID, mode string, limit int) ([]video.Job, error) {
	return s.list(ctx, `WHERE account_id = $1 AND project_id = $2 AND ($3 = '' OR mode = $3)
		ORDER BY created_at DESC, `+s.q.db.d.Seq+` DESC LIMIT $4`, accountID, projectID, mode, limit)
}

// list returns the jobs the where clause selects, each with its
// artifacts (by preset, in byte order).
func (s *VideoStore) list(ctx context.Context, where string, args ...any) ([]video.Job, error) {
	db := s.q.db
	jobs, err := collect(ctx, db.read, scanJob, `SELECT `+jobColumns+` FROM video_jobs `+where, args...)
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		if jobs[i].ExportID == "" {
			continue
		}
		if jobs[i].Artifacts, err = db.artifacts(ctx, "preset"+db.d.Bytewise, jobs[i].ExportID); err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

// StartRun moves run of a queued job to running.
func (s *VideoStore) StartRun(ctx context.Context, id string, run int, at time.Time) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET status = 'running', started_at = $1, heartbeat_at = $1, progress = 0
		WHERE id = $2 AND run = $3 AND status = 'queued'`, s.q.db.ts(at), id, run)
}

// Beat records a running run's progress (never lowering it) and
// heartbeat.
func (s *VideoStore) Beat(ctx context.Context, id string, run int, progress float64, at time.Time) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET progress = `+s.q.db.d.Greatest+`(progress, $1), heartbeat_at = $2
		WHERE id = $3 AND run = $4 AND status = 'running'`, min(max(progress, 0), 1), s.q.db.ts(at), id, run)
}

// Requeue moves a running run back to queued.
func (s *VideoStore) Requeue(ctx context.Context, id string, run int) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET status = 'queued', progress = 0, started_at = NULL, heartbeat_at = NULL
		WHERE id = $1 AND run = $2 AND status = 'running'`, id, run)
}

func (s *VideoStore) exec(ctx context.Context, query string, args ...any) (bool, error) {
	res, err := s.q.db.write.exec(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("store: job: %w", err)
	}
	n, err := affected(res)
	return n > 0, err
}

// Succeed ends a running run with j's output and inserts e, in one
// transaction; ok false (and e not inserted) when the run is no longer
// running.
func (s *VideoStore) Succeed(ctx context.Context, j *video.Job, e *project.Export) (bool, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		var exportID sql.NullString
		if e != nil {
			if err := tx.InsertExport(ctx, e); err != nil {
				return err
			}
			exportID = sql.NullString{String: e.ID, Valid: true}
		}
		res, err := tx.exec(ctx, `UPDATE video_jobs SET status = 'succeeded', progress = 1, finished_at = $1,
			output = NULLIF($2, ''), output_type = NULLIF($3, ''), export_id = $4, result_revision = NULLIF($5, 0)
			WHERE id = $6 AND run = $7 AND status = 'running'`,
			s.q.db.ts(j.FinishedAt), j.Output, j.OutputType, exportID, j.ResultRevision, j.ID, j.Run)
		return runUpdated(res, err)
	})
	return ranOK(err)
}

// Fail ends a running run as failed and gives its run of the pool back.
func (s *VideoStore) Fail(ctx context.Context, id string, run int, jerr video.JobError, at time.Time) (bool, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error { return tx.failJob(ctx, id, run, nil, jerr, at) })
	return ranOK(err)
}

// failJob ends a running run as failed and gives its run back, or
// returns errRunGone. With staleBefore set (the rescuer), only while its
// heartbeat is older than that: a run that beat meanwhile is alive.
func (t *Tx) failJob(ctx context.Context, id string, run int, staleBefore *time.Time, jerr video.JobError, at time.Time) error {
	stale := at
	if staleBefore != nil {
		stale = *staleBefore
	}
	res, err := t.exec(ctx, `UPDATE video_jobs SET status = 'failed', finished_at = $1, error_code = $2,
		error_message = $3 WHERE id = $4 AND run = $5 AND status = 'running' AND (NOT $6 OR heartbeat_at < $7)`,
		t.db.ts(at), jerr.Code, jerr.Message, id, run, staleBefore != nil, t.db.ts(stale))
	if err := runUpdated(res, err); err != nil {
		return err
	}
	return t.giveBackRun(ctx, id)
}

// giveBackRun returns the run a job took from its daily pool.
func (t *Tx) giveBackRun(ctx context.Context, jobID string) error {
	_, err := t.exec(ctx, `UPDATE daily_usage SET used = used - 1 WHERE used > 0 AND (pool, day) =
		(SELECT pool, pool_day FROM video_jobs WHERE id = $1)`, jobID)
	if err != nil {
		return fmt.Errorf("store: give back the run of job %s: %w", jobID, err)
	}
	return nil
}

func runUpdated(res sql.Result, err error) error {
	if err != nil {
		return fmt.Errorf("store: job: %w", err)
	}
	if n, err := affected(res); err != nil || n == 0 {
		return errors.Join(errRunGone, err)
	}
	return nil
}

func ranOK(err error) (bool, error) {
	if errors.Is(err, errRunGone) {
		return false, nil
	}
	return err == nil, err
}

// Cancel moves the account's queued or running job to canceled and gives
// its run back, or returns [apperr.NotFound] or [apperr.Conflict]
// (details.reason "job_finished", details.status). It locks the job's
// row first, so a run that ends in another process meanwhile either ends
// before (and the job is final) or finds the job canceled.
func (s *VideoStore) Cancel(ctx context.Context, accountID, id string, at time.Time) (*video.Job, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		var status string
		err := tx.queryRow(ctx, `SELECT status FROM video_jobs WHERE id = $1 AND account_id = $2 `+s.q.db.d.ForUpdate,
			id, accountID).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "job not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("store: cancel job %s: %w", id, err)
		}
		if video.Status(status).Final() {
			return apperr.New(apperr.Conflict, "the job already ended (%s); only a queued or running job can be canceled", status).
				WithDetail("reason", "job_finished").WithDetail("status", status)
		}
		if _, err := tx.exec(ctx, `UPDATE video_jobs SET status = 'canceled', finished_at = $1, error_code = $2,
			error_message = 'the job was canceled' WHERE id = $3`, s.q.db.ts(at), video.ErrCodeCanceled, id); err != nil {
			return fmt.Errorf("store: cancel job %s: %w", id, err)
		}
		return tx.giveBackRun(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return s.Job(ctx, accountID, id)
}

// Rescue requeues (as a new run) or fails the running jobs whose
// heartbeat is older than cutoff. Each move is conditioned on the run
// still being the stale one, so rescuers in several processes move each
// job once, and a run that beat or ended meanwhile is left alone.
func (s *VideoStore) Rescue(ctx context.Context, cutoff time.Time, maxRuns int, jerr video.JobError, at time.Time, work func(*video.Job) video.WorkArgs) (int, error) {
	db := s.q.db
	cutoff = cutoff.UTC().Truncate(time.Second)
	// In insertion order: concurrent rescuers lock the rows in the same
	// order and cannot deadlock.
	stale, err := s.list(ctx, `WHERE status = 'running' AND heartbeat_at < $1 ORDER BY `+db.d.Seq, db.ts(cutoff))
	if err != nil || len(stale) == 0 {
		return 0, err
	}
	moved := 0
	err = s.q.WriteTx(ctx, func(tx *Tx) error {
		for i := range stale {
			j := &stale[i]
			if j.Run >= maxRuns {
				err := tx.failJob(ctx, j.ID, j.Run, &cutoff, jerr, at)
				if errors.Is(err, errRunGone) {
					continue
				}
				if err != nil {
					return err
				}
				moved++
				continue
			}
			res, err := tx.exec(ctx, `UPDATE video_jobs SET status = 'queued', run = run + 1, progress = 0,
				started_at = NULL, heartbeat_at = NULL WHERE id = $1 AND run = $2 AND status = 'running' AND heartbeat_at < $3`,
				j.ID, j.Run, db.ts(cutoff))
			if err := runUpdated(res, err); errors.Is(err, errRunGone) {
				continue
			} else if err != nil {
				return err
			}
			j.Run++
			if err := enqueueRun(ctx, tx, j, work(j)); err != nil {
				return err
			}
			moved++
		}
		return nil
	})
	return moved, err
}

// Ahead returns the queued and running jobs of j's lane created before
// it, oldest first.
func (s *VideoStore) Ahead(ctx context.Context, j *video.Job) ([]video.Job, error) {
	// The insertion order orders jobs as they were accepted, within a
	// second too.
	seq := s.q.db.d.Seq
	all, err := s.list(ctx, `WHERE status IN ('queued', 'running') AND `+seq+` < (SELECT `+seq+` FROM video_jobs WHERE id = $1)
		ORDER BY `+seq, j.ID)
	if err != nil {
		return nil, err
	}
	lane := video.LaneOf(j)
	ahead := all[:0]
	for _, a := range all {
		if video.LaneOf(&a) == lane {
			ahead = append(ahead, a)
		}
	}
	return ahead, nil
}
