package sqlite

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

// UploadStore keeps media upload sessions and their parts. Its writes
// return [apperr.Unavailable] (details.retryAfterSeconds) if another
// process holds the write lock past the busy timeout.
type UploadStore struct{ db *DB }

var _ media.Store = (*UploadStore)(nil)

// Uploads returns the store of upload sessions.
func (db *DB) Uploads() *UploadStore { return &UploadStore{db: db} }

const uploadColumns = `id, account_id, project_id, object_key, filename, content_type, bytes, multipart, part_size,
	part_count, status, created_at, expires_at, completed_at, media_expires_at, probe, reject_reason`

// CreateUpload inserts s unless the account holds maxOpen pending
// sessions whose URLs end after openAfter; the count and the insert are
// one statement under the write lock.
func (s *UploadStore) CreateUpload(ctx context.Context, u *media.Session, maxOpen int, openAfter time.Time) error {
	res, err := s.db.write.ExecContext(ctx, `INSERT INTO uploads(id, account_id, project_id, object_key, filename,
		content_type, bytes, multipart, part_size, part_count, status, created_at, expires_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?
		WHERE (SELECT COUNT(*) FROM uploads WHERE account_id = ? AND status = 'pending' AND expires_at > ?) < ?`,
		u.ID, u.AccountID, u.ProjectID, u.ObjectKey, u.Filename, u.ContentType, u.Bytes, u.Multipart, u.PartSize,
		u.PartCount, formatTime(u.CreatedAt), formatTime(u.ExpiresAt), u.AccountID, formatTime(openAfter), maxOpen)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: create upload %s: %w", u.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: create upload %s: %w", u.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: create upload %s: %d open: %w", u.ID, maxOpen, media.ErrTooManyOpen)
	}
	return nil
}

// Upload returns the account's session with its parts, or
// [apperr.NotFound].
func (s *UploadStore) Upload(ctx context.Context, accountID, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = ? AND account_id = ?`, id, accountID)
}

// UploadByID returns the session whoever owns it, or [apperr.NotFound].
func (s *UploadStore) UploadByID(ctx context.Context, id string) (*media.Session, error) {
	return s.one(ctx, `WHERE id = ?`, id)
}

// UploadByKey returns the account's session of objectKey, or
// [apperr.NotFound].
func (s *UploadStore) UploadByKey(ctx context.Context, accountID, objectKey string) (*media.Session, error) {
	return s.one(ctx, `WHERE object_key = ? AND account_id = ?`, objectKey, accountID)
}

func (s *UploadStore) one(ctx context.Context, where string, args ...any) (*media.Session, error) {
	u, err := scanUpload(s.db.read.QueryRowContext(ctx, `SELECT `+uploadColumns+` FROM uploads `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "upload session not found").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	if u.Received, err = s.parts(ctx, u.ID); err != nil {
		return nil, err
	}
	return u, nil
}

func (s *UploadStore) parts(ctx context.Context, id string) ([]media.Part, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT part_number, bytes, etag FROM upload_parts
		WHERE upload_id = ? ORDER BY part_number`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: upload parts %s: %w", id, err)
	}
	defer rows.Close()
	list := []media.Part{}
	for rows.Next() {
		var p media.Part
		if err := rows.Scan(&p.Number, &p.Bytes, &p.ETag); err != nil {
			return nil, fmt.Errorf("sqlite: upload parts %s: %w", id, err)
		}
		list = append(list, p)
	}
	return list, rows.Err()
}

// ListUploads returns up to limit of the account's sessions for the
// project, newest first, without their parts.
func (s *UploadStore) ListUploads(ctx context.Context, accountID, projectID string, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE account_id = ? AND project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
		accountID, projectID, limit)
}

// DueUploads returns up to limit sessions whose bytes are due for
// deletion at now.
func (s *UploadStore) DueUploads(ctx context.Context, now time.Time, grace time.Duration, limit int) ([]media.Session, error) {
	return s.list(ctx, `WHERE (status = 'pending' AND expires_at < ?) OR (status = 'completed' AND media_expires_at <= ?)
		OR status = 'rejected' LIMIT ?`, formatTime(now.Add(-grace)), formatTime(now), limit)
}

func (s *UploadStore) list(ctx context.Context, where string, args ...any) ([]media.Session, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+uploadColumns+` FROM uploads `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: uploads: %w", err)
	}
	defer rows.Close()
	list := []media.Session{}
	for rows.Next() {
		u, err := scanUpload(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *u)
	}
	return list, rows.Err()
}

// RecordPart records (or replaces) a part of a pending session, or
// returns [apperr.Conflict] (details.reason "upload_completed").
func (s *UploadStore) RecordPart(ctx context.Context, uploadID string, p media.Part) error {
	res, err := s.db.write.ExecContext(ctx, `INSERT INTO upload_parts(upload_id, part_number, bytes, etag)
		SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM uploads WHERE id = ? AND status = 'pending')
		ON CONFLICT(upload_id, part_number) DO UPDATE SET bytes = excluded.bytes, etag = excluded.etag`,
		uploadID, p.Number, p.Bytes, p.ETag, uploadID)
	if err != nil {
		return fmt.Errorf("sqlite: record part %d of %s: %w", p.Number, uploadID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return apperr.New(apperr.Conflict, "the upload session is no longer open for parts").
			WithDetail("reason", "upload_completed").Wrap(err)
	}
	return nil
}

// FinishUpload moves a pending session to u.Status and forgets its parts,
// in one transaction, or returns [apperr.Conflict] (details.reason
// "upload_completed").
func (s *UploadStore) FinishUpload(ctx context.Context, u *media.Session) error {
	var probe sql.NullString
	if u.Probe != nil {
		b, err := json.Marshal(u.Probe)
		if err != nil {
			return fmt.Errorf("sqlite: finish upload %s: %w", u.ID, err)
		}
		probe = sql.NullString{String: string(b), Valid: true}
	}
	var mediaExpires sql.NullString
	if !u.MediaExpiresAt.IsZero() {
		mediaExpires = sql.NullString{String: formatTime(u.MediaExpiresAt), Valid: true}
	}
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		res, err := tx.tx.ExecContext(ctx, `UPDATE uploads SET status = ?, completed_at = ?, media_expires_at = ?,
			probe = ?, reject_reason = NULLIF(?, '') WHERE id = ? AND status = 'pending'`,
			string(u.Status), formatTime(u.CompletedAt), mediaExpires, probe, u.RejectReason, u.ID)
		if err != nil {
			return fmt.Errorf("sqlite: finish upload %s: %w", u.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return apperr.New(apperr.Conflict, "the upload session is no longer open").
				WithDetail("reason", "upload_completed").Wrap(err)
		}
		if _, err := tx.tx.ExecContext(ctx, `DELETE FROM upload_parts WHERE upload_id = ?`, u.ID); err != nil {
			return fmt.Errorf("sqlite: finish upload %s: %w", u.ID, err)
		}
		return nil
	})
}

// ExpireUpload marks the session expired and forgets its parts.
func (s *UploadStore) ExpireUpload(ctx context.Context, id string) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, `UPDATE uploads SET status = 'expired' WHERE id = ?`, id); err != nil {
			return fmt.Errorf("sqlite: expire upload %s: %w", id, err)
		}
		if _, err := tx.tx.ExecContext(ctx, `DELETE FROM upload_parts WHERE upload_id = ?`, id); err != nil {
			return fmt.Errorf("sqlite: expire upload %s: %w", id, err)
		}
		return nil
	})
}

func scanUpload(row scanner) (*media.Session, error) {
	var u media.Session
	var status, created, expires string
	var completed, mediaExpires, probe, reject sql.NullString
	err := row.Scan(&u.ID, &u.AccountID, &u.ProjectID, &u.ObjectKey, &u.Filename, &u.ContentType, &u.Bytes,
		&u.Multipart, &u.PartSize, &u.PartCount, &status, &created, &expires, &completed, &mediaExpires, &probe, &reject)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("sqlite: scan upload: %w", err)
	}
	u.Status, u.RejectReason = media.Status(status), reject.String
	if u.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if u.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		s   sql.NullString
		dst *time.Time
	}{{completed, &u.CompletedAt}, {mediaExpires, &u.MediaExpiresAt}} {
		p, err := parseNullTime(t.s)
		if err != nil {
			return nil, err
		}
		if p != nil {
			*t.dst = *p
		}
	}
	if probe.Valid {
		u.Probe = &media.Probe{}
		if err := json.Unmarshal([]byte(probe.String), u.Probe); err != nil {
			return nil, fmt.Errorf("sqlite: upload %s: probe: %w", u.ID, err)
		}
	}
	return &u, nil
}
