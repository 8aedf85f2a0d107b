package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video"
)

// SucceedAnalysis ends a running analyze run and keeps a as its media's
// analysis, replacing an older one, in one transaction; ok false (nothing
// kept) when the run is no longer running, [account.StorageFull] when a
// does not fit the account's storage quota.
func (s *VideoStore) SucceedAnalysis(ctx context.Context, j *video.Job, a *video.StoredAnalysis) (bool, error) {
	err := s.q.WriteTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE video_jobs SET status = 'succeeded', progress = 1, finished_at = $1
			WHERE id = $2 AND run = $3 AND status = 'running'`, s.q.db.ts(j.FinishedAt), j.ID, j.Run)
		if err := runUpdated(res, err); err != nil {
			return err
		}
		var old int64
		err = tx.queryRow(ctx, `SELECT bytes FROM media_analyses WHERE upload_id = $1`, a.UploadID).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: analysis of %s: %w", a.UploadID, err)
		}
		if err := tx.fitStorage(ctx, a.AccountID, int64(len(a.JSON))-old); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `INSERT INTO media_analyses(upload_id, account_id, project_id, job_id, analysis, bytes, created_at)
			VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT(upload_id) DO UPDATE SET job_id = excluded.job_id,
			analysis = excluded.analysis, bytes = excluded.bytes, created_at = excluded.created_at`,
			a.UploadID, a.AccountID, a.ProjectID, a.JobID, a.JSON, int64(len(a.JSON)), s.q.db.ts(j.FinishedAt))
		if err != nil {
			return fmt.Errorf("store: keep the analysis of %s: %w", a.UploadID, err)
		}
		return nil
	})
	return ranOK(err)
}

// Analysis returns the JSON of the account's analysis of the upload's
// media, or [apperr.NotFound] when it has none.
func (s *UploadStore) Analysis(ctx context.Context, accountID, uploadID string) (*media.StoredAnalysis, error) {
	return s.analysis(ctx, `WHERE account_id = $1 AND upload_id = $2`, accountID, uploadID)
}

// ProjectAnalysis returns the newest analysis of the media uploaded to
// the account's project, or [apperr.NotFound] when none was analysed.
func (s *UploadStore) ProjectAnalysis(ctx context.Context, accountID, projectID string) (*media.StoredAnalysis, error) {
	return s.analysis(ctx, `WHERE account_id = $1 AND project_id = $2 ORDER BY created_at DESC, upload_id DESC LIMIT 1`,
		accountID, projectID)
}

func (s *UploadStore) analysis(ctx context.Context, where string, args ...any) (*media.StoredAnalysis, error) {
	var a media.StoredAnalysis
	err := s.db.read.queryRow(ctx, `SELECT upload_id, project_id, job_id, analysis, created_at FROM media_analyses `+where, args...).
		Scan(&a.UploadID, &a.ProjectID, &a.JobID, &a.JSON, at(&a.CreatedAt))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "the media has not been analysed").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: analysis: %w", err)
	}
	return &a, nil
}
