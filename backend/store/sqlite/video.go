package sqlite

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
// transaction. Its writes return [apperr.Unavailable]
// (details.retryAfterSeconds) if another process holds the write lock
// past the busy timeout.
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
var errRunGone = errors.New("sqlite: job run gone")

// CreateJob inserts j, takes one run of count's pool and enqueues args
// in j's lane, in one transaction.
func (s *VideoStore) CreateJob(ctx context.Context, j *video.Job, count project.RunCount, args video.WorkArgs) (int, error) {
	var used int
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		u, ok, err := tx.TakeRun(ctx, count)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("sqlite: create job %s: %w", j.ID, video.ErrPoolFull)
		}
		used = u
		_, err = tx.tx.ExecContext(ctx, `INSERT INTO video_jobs(id, account_id, project_id, kind, mode, preset, fix_profile,
			output_delivery, media_key, container, subtitle_codec, language, ir_revision, media_seconds, status, run,
			created_at, pool, pool_day, track_index) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
			j.ID, j.AccountID, j.ProjectID, string(j.Kind), j.Mode, j.Preset, j.FixProfile, j.OutputDelivery, j.MediaKey,
			j.Container, j.SubtitleCodec, j.Language, j.IRRevision, j.MediaSeconds, j.Run, formatTime(j.CreatedAt),
			j.Pool, formatDay(j.PoolDay), j.TrackIndex)
		switch {
		case isForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("sqlite: create job %s: %w", j.ID, err)
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
	return s.one(ctx, `WHERE id = ? AND account_id = ?`, id, accountID)
}

// JobByID returns the job whoever owns it, or [apperr.NotFound].
func (s *VideoStore) JobByID(ctx context.Context, id string) (*video.Job, error) {
	return s.one(ctx, `WHERE id = ?`, id)
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

// ListJobs returns up to limit of the account's jobs for the project,
// newest first, with their artifacts.
func (s *VideoStore) ListJobs(ctx context.Context, accountID, projectID string, limit int) ([]video.Job, error) {
	return s.list(ctx, `WHERE account_id = ? AND project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`, accountID, projectID, limit)
}

func (s *VideoStore) list(ctx context.Context, where string, args ...any) ([]video.Job, error) {
	db := s.q.db
	rows, err := db.read.QueryContext(ctx, `SELECT `+jobColumns+` FROM video_jobs `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: jobs: %w", err)
	}
	jobs := []video.Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		jobs = append(jobs, *j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: jobs: %w", err)
	}
	for i := range jobs {
		if jobs[i].ExportID == "" {
			continue
		}
		if jobs[i].Artifacts, err = db.artifactsOf(ctx, jobs[i].ExportID); err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

func (db *DB) artifactsOf(ctx context.Context, exportID string) ([]project.Artifact, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE export_id = ? ORDER BY preset`, exportID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: artifacts of %s: %w", exportID, err)
	}
	defer rows.Close()
	var list []project.Artifact
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *a)
	}
	return list, rows.Err()
}

// StartRun moves run of a queued job to running.
func (s *VideoStore) StartRun(ctx context.Context, id string, run int, at time.Time) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET status = 'running', started_at = ?, heartbeat_at = ?, progress = 0
		WHERE id = ? AND run = ? AND status = 'queued'`, formatTime(at), formatTime(at), id, run)
}

// Beat records a running run's progress and heartbeat.
func (s *VideoStore) Beat(ctx context.Context, id string, run int, progress float64, at time.Time) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET progress = max(progress, ?), heartbeat_at = ?
		WHERE id = ? AND run = ? AND status = 'running'`, min(max(progress, 0), 1), formatTime(at), id, run)
}

// Requeue moves a running run back to queued.
func (s *VideoStore) Requeue(ctx context.Context, id string, run int) (bool, error) {
	return s.exec(ctx, `UPDATE video_jobs SET status = 'queued', progress = 0, started_at = NULL, heartbeat_at = NULL
		WHERE id = ? AND run = ? AND status = 'running'`, id, run)
}

func (s *VideoStore) exec(ctx context.Context, query string, args ...any) (bool, error) {
	res, err := s.q.db.write.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("sqlite: job: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Succeed ends a running run with j's output and inserts e, in one
// transaction.
func (s *VideoStore) Succeed(ctx context.Context, j *video.Job, e *project.Export) (bool, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		var exportID sql.NullString
		if e != nil {
			if err := tx.InsertExport(ctx, e); err != nil {
				return err
			}
			exportID = sql.NullString{String: e.ID, Valid: true}
		}
		res, err := tx.tx.ExecContext(ctx, `UPDATE video_jobs SET status = 'succeeded', progress = 1, finished_at = ?,
			output = NULLIF(?, ''), output_type = NULLIF(?, ''), export_id = ?, result_revision = NULLIF(?, 0)
			WHERE id = ? AND run = ? AND status = 'running'`,
			formatTime(j.FinishedAt), j.Output, j.OutputType, exportID, j.ResultRevision, j.ID, j.Run)
		return runUpdated(res, err)
	})
	return ranOK(err)
}

// Fail ends a running run as failed and gives its run of the pool back.
func (s *VideoStore) Fail(ctx context.Context, id string, run int, jerr video.JobError, at time.Time) (bool, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error { return tx.failJob(ctx, id, run, jerr, at) })
	return ranOK(err)
}

func (t *Tx) failJob(ctx context.Context, id string, run int, jerr video.JobError, at time.Time) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE video_jobs SET status = 'failed', finished_at = ?, error_code = ?,
		error_message = ? WHERE id = ? AND run = ? AND status = 'running'`, formatTime(at), jerr.Code, jerr.Message, id, run)
	if err := runUpdated(res, err); err != nil {
		return err
	}
	return t.giveBackRun(ctx, id)
}

// giveBackRun returns the run a job took from its daily pool.
func (t *Tx) giveBackRun(ctx context.Context, jobID string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE daily_usage SET used = used - 1 WHERE used > 0 AND (pool, day) =
		(SELECT pool, pool_day FROM video_jobs WHERE id = ?)`, jobID)
	if err != nil {
		return fmt.Errorf("sqlite: give back the run of job %s: %w", jobID, err)
	}
	return nil
}

func runUpdated(res sql.Result, err error) error {
	if err != nil {
		return fmt.Errorf("sqlite: job: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
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
// (details.reason "job_finished").
func (s *VideoStore) Cancel(ctx context.Context, accountID, id string, at time.Time) (*video.Job, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		var status string
		err := tx.tx.QueryRowContext(ctx, `SELECT status FROM video_jobs WHERE id = ? AND account_id = ?`, id, accountID).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "job not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("sqlite: cancel job %s: %w", id, err)
		}
		if video.Status(status).Final() {
			return apperr.New(apperr.Conflict, "the job already ended (%s); only a queued or running job can be canceled", status).
				WithDetail("reason", "job_finished").WithDetail("status", status)
		}
		if _, err := tx.tx.ExecContext(ctx, `UPDATE video_jobs SET status = 'canceled', finished_at = ?, error_code = ?,
			error_message = 'the job was canceled' WHERE id = ?`, formatTime(at), video.ErrCodeCanceled, id); err != nil {
			return fmt.Errorf("sqlite: cancel job %s: %w", id, err)
		}
		return tx.giveBackRun(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return s.Job(ctx, accountID, id)
}

// Rescue requeues (as a new run) or fails the running jobs whose
// heartbeat is older than cutoff.
func (s *VideoStore) Rescue(ctx context.Context, cutoff time.Time, maxRuns int, jerr video.JobError, at time.Time, work func(*video.Job) video.WorkArgs) (int, error) {
	stale, err := s.list(ctx, `WHERE status = 'running' AND heartbeat_at < ?`, formatTime(cutoff))
	if err != nil || len(stale) == 0 {
		return 0, err
	}
	moved := 0
	err = s.q.WriteTx(ctx, func(tx *Tx) error {
		for i := range stale {
			j := &stale[i]
			if j.Run >= maxRuns {
				err := tx.failJob(ctx, j.ID, j.Run, jerr, at)
				if errors.Is(err, errRunGone) {
					continue
				}
				if err != nil {
					return err
				}
				moved++
				continue
			}
			res, err := tx.tx.ExecContext(ctx, `UPDATE video_jobs SET status = 'queued', run = run + 1, progress = 0,
				started_at = NULL, heartbeat_at = NULL WHERE id = ? AND run = ? AND status = 'running' AND heartbeat_at < ?`,
				j.ID, j.Run, formatTime(cutoff))
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
	// rowid orders jobs as they were accepted, within a second too.
	all, err := s.list(ctx, `WHERE status IN ('queued', 'running') AND rowid < (SELECT rowid FROM video_jobs WHERE id = ?)
		ORDER BY rowid`, j.ID)
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

// Speeds returns, per mode, the median media seconds per wall second of
// the last 20 succeeded jobs with media.
func (s *VideoStore) Speeds(ctx context.Context) (map[string]float64, error) {
	rows, err := s.q.db.read.QueryContext(ctx, `SELECT mode, media_seconds, started_at, finished_at FROM video_jobs
		WHERE status = 'succeeded' AND media_seconds > 0 AND started_at IS NOT NULL ORDER BY finished_at DESC LIMIT 200`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: job speeds: %w", err)
	}
	defer rows.Close()
	samples := map[string][]float64{}
	for rows.Next() {
		var mode, started, finished string
		var secs float64
		if err := rows.Scan(&mode, &secs, &started, &finished); err != nil {
			return nil, fmt.Errorf("sqlite: job speeds: %w", err)
		}
		a, err1 := parseTime(started)
		b, err2 := parseTime(finished)
		if err1 != nil || err2 != nil || len(samples[mode]) >= 20 {
			continue
		}
		// Times are whole seconds: a run under a second counts as one.
		samples[mode] = append(samples[mode], secs/max(b.Sub(a).Seconds(), 1))
	}
	speeds := map[string]float64{}
	for mode, v := range samples {
		speeds[mode] = median(v)
	}
	return speeds, rows.Err()
}
