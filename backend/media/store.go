package media

import (
	"context"
	"errors"
	"time"
)

// ErrTooManyOpen is returned, wrapped, by [Store.CreateUpload] when the
// account already has its maximum of open sessions.
var ErrTooManyOpen = errors.New("media: too many open upload sessions")

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error. A session of another account is
// [apperr.NotFound], as an unknown one is.
type Store interface {
	// Analysis returns the account's analysis of the upload's media, or
	// [apperr.NotFound] when it was not analysed.
	Analysis(ctx context.Context, accountID, uploadID string) (*StoredAnalysis, error)
	// ProjectAnalysis returns the newest analysis of the media uploaded
	// to the account's project, or [apperr.NotFound].
	ProjectAnalysis(ctx context.Context, accountID, projectID string) (*StoredAnalysis, error)
	// CreateUpload inserts s unless the account already has maxOpen
	// pending sessions whose URLs end after openAfter: then it inserts
	// nothing and returns an error wrapping [ErrTooManyOpen]. The count
	// and the insert are one atomic step.
	CreateUpload(ctx context.Context, s *Session, maxOpen int, openAfter time.Time) error
	// Upload returns the account's session with its received parts, or
	// [apperr.NotFound].
	Upload(ctx context.Context, accountID, id string) (*Session, error)
	// UploadByID returns the session whoever owns it (a signed URL names
	// no account), or [apperr.NotFound].
	UploadByID(ctx context.Context, id string) (*Session, error)
	// UploadByKey returns the account's session of objectKey, or
	// [apperr.NotFound].
	UploadByKey(ctx context.Context, accountID, objectKey string) (*Session, error)
	// ListUploads returns up to limit of the account's sessions for the
	// project, newest first.
	ListUploads(ctx context.Context, accountID, projectID string, limit int) ([]Session, error)
	// RecordPart records (or replaces) a stored part of a pending
	// session; [apperr.Conflict] (details.reason "upload_completed") when
	// the session is no longer pending.
	RecordPart(ctx context.Context, uploadID string, p Part) error
	// FinishUpload moves a pending session to s.Status (completed or
	// rejected) with s's CompletedAt, MediaExpiresAt, Probe and
	// RejectReason, and forgets its parts; [apperr.Conflict]
	// (details.reason "upload_completed") when it is no longer pending.
	FinishUpload(ctx context.Context, s *Session) error
	// DueUploads returns up to limit sessions whose bytes are due for
	// deletion at now: pending ones whose URLs ended before now-grace,
	// completed ones past MediaExpiresAt, rejected ones.
	DueUploads(ctx context.Context, now time.Time, grace time.Duration, limit int) ([]Session, error)
	// ExpireUpload marks the session expired (its bytes are gone).
	ExpireUpload(ctx context.Context, id string) error
}

// Projects tells whether the account has the project (*project.Service).
type Projects interface {
	// Check returns [apperr.NotFound] for an unknown project or another
	// account's, [apperr.BadRequest] for an id that is not a uuid.
	Check(ctx context.Context, accountID, id string) error
}
