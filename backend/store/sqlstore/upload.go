package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

// UploadStore keeps media upload sessions and their parts. Its methods
// may return [apperr.Unavailable] (details.retryAfterSeconds) when the
// database is busy or cannot be reached.
type UploadStore struct{ db *DB }

var _ media.Store = (*UploadStore)(nil)

// Uploads returns the store of upload sessions.
func (db *DB) Uploads() *UploadStore { return &UploadStore{db: db} }

const uploadColumns = `id, account_id, project_id, object_key, filename, content_type, bytes, multipart, part_size,
	part_count, status, created_at, expires_at, completed_at, media_expires_at, probe, reject_reason`

// CreateUpload inserts u unless the account holds maxOpen pending
// sessions whose URLs end after openAfter (an error wrapping
// [media.ErrTooManyOpen]); the count and the insert run under the
// account's row lock, so creators in several processes stay within
// maxOpen. [apperr.NotFound] when the account is unknown.
func (s *UploadStore) CreateUpload(ctx context.Context, u *media.Session, maxOpen int, openAfter time.Time) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := tx.lockAccount(ctx, u.AccountID); err != nil {
			return err
		}
		var open int
		err := tx.queryRow(ctx, `SELECT count(*) FROM uploads WHERE account_id = $1 AND status = 'pending' AND expires_at > $2`,
			u.AccountID, s.db.ts(openAfter)).Scan(&open)
		if err != nil {
			return fmt.Errorf("store: create upload %s: %w", u.ID, err)
		}
		if open >= maxOpen {
			return fmt.Errorf("store: create upload %s: %d open: %w", u.ID, maxOpen, media.ErrTooManyOpen)
		}
		if err := tx.fitStorage(ctx, u.AccountID, u.Bytes); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `INSERT INTO uploads(id, account_id, project_id, object_key, filename,
			content_type, bytes, multipart, part_size, part_count, status, created_at, expires_at)
			VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12)`,
			u.ID, u.AccountID, u.ProjectID, u.ObjectKey, u.Filename, u.ContentType, u.Bytes, u.Multipart, u.PartSize,
			u.PartCount, s.db.ts(u.CreatedAt), s.db.ts(u.ExpiresAt))
		if err != nil {
			return fmt.Errorf("store: create upload %s: %w", u.ID, err)
		}
		return nil
	})
}

// Upload returns the account's session with its parts, or
// [apperr.NotFound].
func (s *UploadStore) Upload(ctx context.Context, accountID, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = $1 AND account_id = $2`, id, accountID)
}

// UploadByID returns the session whoever owns it, or [apperr.NotFound].
func (s *UploadStore) UploadByID(ctx context.Context, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = $1`, id)
}

// UploadByKey returns the account's session of objectKey, or
// [apperr.NotFound].
func (s *UploadStore) UploadByKey(ctx context.Context, accountID, objectKey string) (*media.Session, error) {
	return s.one(ctx, `WHERE object_key = $1 AND account_id = $2`, objectKey, accountID)
}

func (s *UploadStore) one(ctx context.Context, where string, args ...any) (*media.Session, error) {
	u, err := scanUpload(s.db.read.queryRow(ctx, `SELECT `+uploadColumns+` FROM uploads `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "upload session not found").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	u.Received, err = collect(ctx, s.db.read, func(r scanner) (media.Part, error) {
		var p media.Part
		if err := r.Scan(&p.Number, &p.Bytes, &p.ETag); err != nil {
			return p, fmt.Errorf("store: upload parts %s: %w", u.ID, err)
		}
		return p, nil
	}, `SELECT part_number, bytes, etag FROM upload_parts WHERE upload_id = $1 ORDER BY part_number`, u.ID)
	if err != nil {
		return nil, err
	}
	return u, nil
}

// ListUploads returns up to limit of the account's sessions for the
// project, newest first, without their parts.
func (s *UploadStore) ListUploads(ctx context.Context, accountID, projectID string, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE account_id = $1 AND project_id = $2 ORDER BY created_at DESC, `+s.db.d.Seq+` DESC LIMIT $3`,
		accountID, projectID, limit)
}

// DueUploads returns up to limit sessions whose bytes are due for
// deletion at now.
func (s *UploadStore) DueUploads(ctx context.Context, now time.Time, grace time.Duration, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE (status = 'pending' AND expires_at < $1) OR (status = 'completed' AND media_expires_at <= $2)
		OR status = 'rejected' LIMIT $3`, s.db.ts(now.Add(-grace)), s.db.ts(now), limit)
}

func (s *UploadStore) list(ctx context.Context, where string, args ...any) ([]media.Session, error) {
	return collect(ctx, s.db.read, func(r scanner) (media.Session, error) {
		u, err := scanUpload(r)
		if err != nil {
			return media.Session{}, err
		}
		return *u, nil
	}, `SELECT `+uploadColumns+` FROM uploads `+where, args...)
}

// RecordPart records (or replaces) a part of a pending session, or
// returns [apperr.Conflict] (details.reason "upload_completed") when the
// session is not pending (or unknown). The session's row is share-locked
// while the part goes in: a FinishUpload or ExpireUpload in another
// process either waits for it, then forgets the part with the others, or
// ran first, and then this finds the session no longer pending. Without
// the lock a part could land after the parts were forgotten.
func (s *UploadStore) RecordPart(ctx context.Context, uploadID string, p media.Part) error {
	res, err := s.db.write.exec(ctx, `INSERT INTO upload_parts(upload_id, part_number, bytes, etag)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM uploads WHERE id = $1 AND status = 'pending' `+s.db.d.ForShare+`)
		ON CONFLICT(upload_id, part_number) DO UPDATE SET bytes = excluded.bytes, etag = excluded.etag`,
		uploadID, p.Number, p.Bytes, p.ETag)
	if err != nil {
		return fmt.Errorf("store: record part %d of %s: %w", p.Number, uploadID, err)
	}
	if n, err := affected(res); err != nil || n == 0 {
		return apperr.New(apperr.Conflict, "the upload session is no longer open for parts").
			WithDetail("reason", "upload_completed").Wrap(err)
	}
	return nil
}

// FinishUpload moves a pending session to u.Status and forgets its parts,
// in one transaction, or returns [apperr.Conflict] (details.reason
// "upload_completed") when it is no longer pending.
func (s *UploadStore) FinishUpload(ctx context.Context, u *media.Session) error {
	var probe sql.NullString
	if u.Probe != nil {
		b, err := json.Marshal(u.Probe)
		if err != nil {
			return fmt.Errorf("store: finish upload %s: %w", u.ID, err)
		}
		probe = sql.NullString{String: string(b), Valid: true}
	}
	var mediaExpires *time.Time
	if !u.MediaExpiresAt.IsZero() {
		mediaExpires = &u.MediaExpiresAt
	}
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		// The UPDATE's WHERE is checked again on the row it locks: of two
		// finishers, the second finds it no longer pending.
		res, err := tx.exec(ctx, `UPDATE uploads SET status = $1, completed_at = $2, media_expires_at = $3,
			probe = $4, reject_reason = NULLIF($5, '') WHERE id = $6 AND status = 'pending'`,
			string(u.Status), s.db.ts(u.CompletedAt), s.db.optTimeArg(mediaExpires), probe, u.RejectReason, u.ID)
		if err != nil {
			return fmt.Errorf("store: finish upload %s: %w", u.ID, err)
		}
		if n, err := affected(res); err != nil || n == 0 {
			return apperr.New(apperr.Conflict, "the upload session is no longer open").
				WithDetail("reason", "upload_completed").Wrap(err)
		}
		return tx.forgetParts(ctx, u.ID)
	})
}

// ExpireUpload marks the session expired and forgets its parts.
func (s *UploadStore) ExpireUpload(ctx context.Context, id string) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `UPDATE uploads SET status = 'expired' WHERE id = $1`, id); err != nil {
			return fmt.Errorf("store: expire upload %s: %w", id, err)
		}
		return tx.forgetParts(ctx, id)
	})
}

func (t *Tx) forgetParts(ctx context.Context, uploadID string) error {
	if _, err := t.exec(ctx, `DELETE FROM upload_parts WHERE upload_id = $1`, uploadID); err != nil {
		return fmt.Errorf("store: forget the parts of upload %s: %w", uploadID, err)
	}
	return nil
}

// scanUpload reads the uploadColumns; no row is [sql.ErrNoRows],
// unwrapped.
func scanUpload(r scanner) (*media.Session, error) {
	var u media.Session
	var status string
	var probe, reject sql.NullString
	err := r.Scan(&u.ID, &u.AccountID, &u.ProjectID, &u.ObjectKey, &u.Filename, &u.ContentType, &u.Bytes,
		&u.Multipart, &u.PartSize, &u.PartCount, &status, at(&u.CreatedAt), at(&u.ExpiresAt), atOrZero(&u.CompletedAt),
		atOrZero(&u.MediaExpiresAt), &probe, &reject)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("store: scan upload: %w", err)
	}
	u.Status, u.RejectReason = media.Status(status), reject.String
	if probe.Valid {
		u.Probe = &media.Probe{}
		if err := json.Unmarshal([]byte(probe.String), u.Probe); err != nil {
			return nil, fmt.Errorf("store: upload %s: probe: %w", u.ID, err)
		}
	}
	return &u, nil
}
