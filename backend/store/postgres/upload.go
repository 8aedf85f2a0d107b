package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

// UploadStore keeps media upload sessions and their parts. Each method
// returns [apperr.Unavailable] (details.retryAfterSeconds) when the
// database cannot be reached.
type UploadStore struct{ db *DB }

var _ media.Store = (*UploadStore)(nil)

// Uploads returns the store of upload sessions.
func (db *DB) Uploads() *UploadStore { return &UploadStore{db: db} }

const uploadColumns = `id, account_id, project_id, object_key, filename, content_type, bytes, multipart, part_size,
	part_count, status, created_at, expires_at, completed_at, media_expires_at, probe, reject_reason`

// CreateUpload inserts u unless the account holds maxOpen pending
// sessions whose URLs end after openAfter (an error wrapping
// [media.ErrTooManyOpen]); the count and the insert run under the
// account's row lock, so creators on several nodes stay within maxOpen.
// [apperr.NotFound] when the account is unknown.
func (s *UploadStore) CreateUpload(ctx context.Context, u *media.Session, maxOpen int, openAfter time.Time) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, u.AccountID); err != nil {
			return err
		}
		var open int
		err := tx.QueryRow(ctx, `SELECT count(*) FROM uploads WHERE account_id = $1 AND status = 'pending' AND expires_at > $2`,
			u.AccountID, second(openAfter)).Scan(&open)
		if err != nil {
			return fmt.Errorf("postgres: create upload %s: %w", u.ID, err)
		}
		if open >= maxOpen {
			return fmt.Errorf("postgres: create upload %s: %d open: %w", u.ID, maxOpen, media.ErrTooManyOpen)
		}
		_, err = tx.Exec(ctx, `INSERT INTO uploads(id, account_id, project_id, object_key, filename,
			content_type, bytes, multipart, part_size, part_count, status, created_at, expires_at)
			VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12)`,
			u.ID, u.AccountID, u.ProjectID, u.ObjectKey, u.Filename, u.ContentType, u.Bytes, u.Multipart, u.PartSize,
			u.PartCount, second(u.CreatedAt), second(u.ExpiresAt))
		if err != nil {
			return fmt.Errorf("postgres: create upload %s: %w", u.ID, err)
		}
		return nil
	})
}

// Upload returns the account's session with its parts, or
// [apperr.NotFound].
func (s *UploadStore) Upload(ctx context.Context, accountID, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = $1 AND account_id = $2`, id, accountID)
}

// UploadByID returns the session whoever owns it, with its parts, or
// [apperr.NotFound].
func (s *UploadStore) UploadByID(ctx context.Context, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = $1`, id)
}

// UploadByKey returns the account's session of objectKey, with its
// parts, or [apperr.NotFound].
func (s *UploadStore) UploadByKey(ctx context.Context, accountID, objectKey string) (*media.Session, error) {
	return s.one(ctx, `WHERE object_key = $1 AND account_id = $2`, objectKey, accountID)
}

// one reads a session and its parts in one statement (one snapshot): the
// parts come as a JSON array in part order, which pgx decodes into
// Received.
func (s *UploadStore) one(ctx context.Context, where string, args ...any) (*media.Session, error) {
	var parts []media.Part
	u, err := scanUpload(s.db.pool.QueryRow(ctx, `SELECT `+uploadColumns+`,
			COALESCE((SELECT jsonb_agg(jsonb_build_object('Number', part_number, 'Bytes', bytes, 'ETag', etag) ORDER BY part_number)
				FROM upload_parts WHERE upload_id = uploads.id), '[]')
		FROM uploads `+where, args...), &parts)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "upload session not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(err)
	}
	u.Received = parts
	return u, nil
}

// ListUploads returns up to limit of the account's sessions for the
// project, newest first, without their parts.
func (s *UploadStore) ListUploads(ctx context.Context, accountID, projectID string, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE account_id = $1 AND project_id = $2 ORDER BY created_at DESC, seq DESC LIMIT $3`,
		accountID, projectID, limit)
}

// DueUploads returns up to limit sessions whose bytes are due for
// deletion at now, without their parts.
func (s *UploadStore) DueUploads(ctx context.Context, now time.Time, grace time.Duration, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE (status = 'pending' AND expires_at < $1) OR (status = 'completed' AND media_expires_at <= $2)
		OR status = 'rejected' LIMIT $3`, second(now.Add(-grace)), second(now), limit)
}

func (s *UploadStore) list(ctx context.Context, where string, args ...any) ([]media.Session, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+uploadColumns+` FROM uploads `+where, args...)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: uploads: %w", err))
	}
	defer rows.Close()
	list := []media.Session{}
	for rows.Next() {
		u, err := scanUpload(rows)
		if err != nil {
			return nil, unavailable(err)
		}
		list = append(list, *u)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: uploads: %w", err))
	}
	return list, nil
}

// RecordPart records (or replaces) a part of a pending session, or
// returns [apperr.Conflict] (details.reason "upload_completed") when the
// session is not pending (or unknown). The session's row is share-locked
// while the part goes in: a FinishUpload or ExpireUpload on another node
// either waits for it, then forgets the part with the others, or ran
// first, and then this finds the session no longer pending. Without the
// lock a part could land after the parts were forgotten.
func (s *UploadStore) RecordPart(ctx context.Context, uploadID string, p media.Part) error {
	tag, err := s.db.pool.Exec(ctx, `INSERT INTO upload_parts(upload_id, part_number, bytes, etag)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM uploads WHERE id = $1 AND status = 'pending' FOR SHARE)
		ON CONFLICT(upload_id, part_number) DO UPDATE SET bytes = excluded.bytes, etag = excluded.etag`,
		uploadID, p.Number, p.Bytes, p.ETag)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: record part %d of %s: %w", p.Number, uploadID, err))
	}
	if tag.RowsAffected() == 0 {
		return apperr.New(apperr.Conflict, "the upload session is no longer open for parts").
			WithDetail("reason", "upload_completed")
	}
	return nil
}

// FinishUpload moves a pending session to u.Status and forgets its parts,
// in one transaction, or returns [apperr.Conflict] (details.reason
// "upload_completed") when it is no longer pending.
func (s *UploadStore) FinishUpload(ctx context.Context, u *media.Session) error {
	var mediaExpires *time.Time
	if !u.MediaExpiresAt.IsZero() {
		t := second(u.MediaExpiresAt)
		mediaExpires = &t
	}
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The UPDATE's WHERE is checked again on the row it locks: of two
		// finishers, the second finds it no longer pending.
		tag, err := tx.Exec(ctx, `UPDATE uploads SET status = $1, completed_at = $2, media_expires_at = $3,
			probe = $4, reject_reason = NULLIF($5, '') WHERE id = $6 AND status = 'pending'`,
			string(u.Status), second(u.CompletedAt), mediaExpires, u.Probe, u.RejectReason, u.ID)
		if err != nil {
			return fmt.Errorf("postgres: finish upload %s: %w", u.ID, err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.New(apperr.Conflict, "the upload session is no longer open").
				WithDetail("reason", "upload_completed")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM upload_parts WHERE upload_id = $1`, u.ID); err != nil {
			return fmt.Errorf("postgres: finish upload %s: %w", u.ID, err)
		}
		return nil
	})
}

// ExpireUpload marks the session expired and forgets its parts.
func (s *UploadStore) ExpireUpload(ctx context.Context, id string) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE uploads SET status = 'expired' WHERE id = $1`, id); err != nil {
			return fmt.Errorf("postgres: expire upload %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM upload_parts WHERE upload_id = $1`, id); err != nil {
			return fmt.Errorf("postgres: expire upload %s: %w", id, err)
		}
		return nil
	})
}

// scanUpload reads the uploadColumns, then any extra destinations; no
// row is pgx.ErrNoRows, unwrapped.
func scanUpload(row pgx.Row, extra ...any) (*media.Session, error) {
	var u media.Session
	var status string
	var completed, mediaExpires *time.Time
	var reject *string
	dest := append([]any{&u.ID, &u.AccountID, &u.ProjectID, &u.ObjectKey, &u.Filename, &u.ContentType, &u.Bytes,
		&u.Multipart, &u.PartSize, &u.PartCount, &status, &u.CreatedAt, &u.ExpiresAt, &completed, &mediaExpires,
		&u.Probe, &reject}, extra...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("postgres: scan upload: %w", err)
	}
	u.Status = media.Status(status)
	u.CreatedAt, u.ExpiresAt = u.CreatedAt.UTC(), u.ExpiresAt.UTC()
	if completed != nil {
		u.CompletedAt = completed.UTC()
	}
	if mediaExpires != nil {
		u.MediaExpiresAt = mediaExpires.UTC()
	}
	if reject != nil {
		u.RejectReason = *reject
	}
	return &u, nil
}
