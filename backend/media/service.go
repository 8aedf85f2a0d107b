package media

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/name"
)

// Options configure a [Service]. All but MaxBytes and Now are required.
type Options struct {
	Store    Store
	Blobs    blob.Store
	Prober   Prober
	Projects Projects
	// SignKey signs the upload URLs (at least 32 bytes).
	SignKey []byte
	// MaxBytes is the largest media accepted (default DefaultMaxBytes).
	MaxBytes int64
	// MaxSeconds is the longest media accepted (default MaxDuration).
	MaxSeconds float64
	// MaxPixels is the largest picture accepted, width times height
	// (default [MaxPicturePixels]), and MaxFrameRate the fastest frame
	// rate (default [MaxFramesPerSecond]): what a render or an OCR costs
	// grows with the pixel rate, not with the file's size.
	MaxPixels    int
	MaxFrameRate float64
	// Presigner, when set, makes each part's URL the blob store's own
	// presigned PUT of the part's object, so that the bytes go from the
	// client to the store without passing through a node (the store must
	// be reachable by the clients); [Service.Complete] then finds the parts
	// in the store. Nil: parts are PUT to the node ([Service.PutPart]).
	Presigner blob.Presigner
	Now       func() time.Time
}

// MaxDuration is the longest media accepted unless configured: a feature
// film with room to spare.
const MaxDuration = 4 * 3600.0

// MaxPicturePixels and MaxFramesPerSecond bound a video stream unless
// configured: 4096x2304 (DCI 4K's width at 16:9) and 120 frames a second.
// A 3-frame 8192x8192 file of 200 KB would otherwise take a burn-in to
// gigabytes of memory (docs/security.md, Limits).
const (
	MaxPicturePixels   = 4096 * 2304
	MaxFramesPerSecond = 120.0
)

// Service runs upload sessions. It is safe for concurrent use.
type Service struct {
	o    Options
	sign signer
}

// NewService returns a [Service]; it panics when a required option is
// missing (a wiring defect of the composition root).
func NewService(o Options) *Service {
	if o.Store == nil || o.Blobs == nil || o.Prober == nil || o.Projects == nil || len(o.SignKey) < 32 {
		panic("media: NewService needs Store, Blobs, Prober, Projects and a 32-byte SignKey")
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxSeconds <= 0 {
		o.MaxSeconds = MaxDuration
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = MaxPicturePixels
	}
	if o.MaxFrameRate <= 0 {
		o.MaxFrameRate = MaxFramesPerSecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{o: o, sign: signer{key: o.SignKey}}
}

// MaxBytes is the largest media the service accepts.
func (s *Service) MaxBytes() int64 { return s.o.MaxBytes }

func (s *Service) now() time.Time { return s.o.Now().UTC().Truncate(time.Second) }

// NewUpload is what [Service.Create] is asked (see the OpenAPI operation
// createMediaUpload).
type NewUpload struct {
	ProjectID   string
	Filename    string
	ContentType string
	Bytes       int64
	// URLTTLSeconds is the URLs' lifetime; 0 takes DefaultURLTTL.
	URLTTLSeconds int
}

// Create opens an upload session for the account's project: one signed
// PUT URL up to [SinglePutMax] bytes, parts of PartSize above it. It
// returns [apperr.BadRequest] naming the field (details.field "bytes",
// "filename", "contentType", "urlTtlSeconds", or "id" for a project id
// that is not a uuid), [apperr.RequestTooLarge] (details.limitBytes) past
// the maximum size, [apperr.NotFound] for an unknown project, and
// [apperr.Conflict] (details.reason "too_many_open_uploads",
// details.limit) when the account has [MaxOpenSessions] pending.
func (s *Service) Create(ctx context.Context, accountID string, in NewUpload) (*Session, error) {
	ttl, err := s.checkNew(in)
	if err != nil {
		return nil, err
	}
	if err := s.o.Projects.Check(ctx, accountID, in.ProjectID); err != nil {
		return nil, err
	}
	now := s.now()
	id := uuid.NewString()
	sess := &Session{ID: id, AccountID: accountID, ProjectID: strings.ToLower(in.ProjectID), ObjectKey: MediaPrefix + id,
		Filename: cleanFilename(in.Filename), ContentType: in.ContentType, Bytes: in.Bytes, Status: Pending,
		CreatedAt: now, ExpiresAt: now.Add(ttl)}
	sess.PartSize, sess.PartCount = layout(in.Bytes)
	sess.Multipart = sess.PartCount > 1 || in.Bytes > SinglePutMax
	err = s.o.Store.CreateUpload(ctx, sess, MaxOpenSessions, now.Add(-CompleteGrace))
	if errors.Is(err, ErrTooManyOpen) {
		return nil, apperr.New(apperr.Conflict, "the account has %d upload sessions open; complete them or let them expire first", MaxOpenSessions).
			WithDetail("reason", "too_many_open_uploads").WithDetail("limit", MaxOpenSessions).Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return sess, nil
}

// layout returns the part size and count of a file of n bytes: one part
// up to SinglePutMax, else parts of MinPartSize, grown in whole MiB so
// that there are at most MaxParts.
func layout(n int64) (size int64, count int) {
	if n <= SinglePutMax {
		return n, 1
	}
	size = MinPartSize
	if need := (n + MaxParts - 1) / MaxParts; need > size {
		size = (need + 1<<20 - 1) &^ (1<<20 - 1)
	}
	return size, int((n + size - 1) / size)
}

// partBytes returns how many bytes part number n of sess holds.
func partBytes(sess *Session, n int) int64 {
	if n < sess.PartCount {
		return sess.PartSize
	}
	return sess.Bytes - int64(sess.PartCount-1)*sess.PartSize
}

func (s *Service) checkNew(in NewUpload) (time.Duration, error) {
	bad := func(field, reason, msg string, args ...any) error {
		return apperr.New(apperr.BadRequest, msg, args...).WithDetail("field", field).WithDetail("reason", reason)
	}
	switch {
	case in.Bytes <= 0:
		return 0, bad("bytes", "out_of_range", "bytes must be the file's size, at least 1")
	case in.Bytes > s.o.MaxBytes:
		return 0, apperr.New(apperr.RequestTooLarge, "the media is %d bytes; the largest accepted is %d", in.Bytes, s.o.MaxBytes).
			WithDetail("field", "bytes").WithDetail("limitBytes", s.o.MaxBytes)
	case strings.TrimSpace(in.Filename) == "" || len(in.Filename) > 1024 || !utf8.ValidString(in.Filename):
		return 0, bad("filename", "invalid", "filename must be a file name of 1 to 1024 bytes of UTF-8")
	case unsafeFilename(in.Filename):
		// A name shown in job lists and downloads, as project and key names
		// are: no control, bidirectional or format character.
		_, err := name.Check("filename", in.Filename, 1024)
		return 0, err
	case !validContentType(in.ContentType):
		return 0, bad("contentType", "invalid", "contentType must be a media type such as video/mp4")
	}
	secs := in.URLTTLSeconds
	if secs == 0 {
		secs = DefaultURLTTL
	}
	if secs < MinURLTTL || secs > MaxURLTTL {
		return 0, bad("urlTtlSeconds", "out_of_range", "urlTtlSeconds must be %d to %d", MinURLTTL, MaxURLTTL)
	}
	return time.Duration(secs) * time.Second, nil
}

// validContentType accepts type/subtype of RFC 6838 restricted-name
// characters, without parameters.
func validContentType(ct string) bool {
	typ, sub, ok := strings.Cut(ct, "/")
	return ok && len(ct) <= 127 && tokenOK(typ) && tokenOK(sub)
}

func tokenOK(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("!#$&-^_.+", r))) {
			return false
		}
	}
	return true
}

// cleanFilename keeps the last path segment of name, without control
// characters, cut to MaxFilenameBytes: it is only ever shown and offered
// as a download name, never used as a path.
func cleanFilename(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	for len(name) > MaxFilenameBytes {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == ".." {
		return "media"
	}
	return name
}

// PartURL is one signed PUT of a session.
type PartURL struct {
	Number int
	// URL is where the part is PUT: the node's signed path and query
	// (starting with [PutPrefix]; [PartURL.On] adds the node's origin), or
	// the blob store's own presigned URL, absolute.
	URL   string
	Bytes int64
}

// On returns the URL a client PUTs the part to when the API is served at
// origin (scheme://host).
func (u PartURL) On(origin string) string {
	if strings.HasPrefix(u.URL, PutPrefix) {
		return origin + u.URL
	}
	return u.URL
}

// URLs returns the signed PUTs of a pending session's parts (none once it
// is no longer pending), valid until its ExpiresAt: the node's, or the
// blob store's presigned ones when the service has a
// [Options.Presigner]. A presigned URL takes exactly its part's bytes
// (the store refuses any other length). Errors come from the presigner
// only (package s3blob's sends no request: it learned the bucket's region
// when it opened).
func (s *Service) URLs(ctx context.Context, sess *Session) ([]PartURL, error) {
	if sess.Status != Pending {
		return nil, nil
	}
	// A session past its ExpiresAt (still completable for CompleteGrace)
	// gets URLs that die at once, as the node's own do.
	ttl := max(sess.ExpiresAt.Sub(s.now()), time.Second)
	urls := make([]PartURL, sess.PartCount)
	for i := range urls {
		n := i + 1
		u := PartURL{Number: n, Bytes: partBytes(sess, n)}
		if s.o.Presigner == nil {
			u.URL = s.sign.path(sess.ID, n, sess.ExpiresAt)
		} else {
			var err error
			if u.URL, err = s.o.Presigner.PresignPut(ctx, partKey(sess.ID, n), u.Bytes, ttl); err != nil {
				return nil, fmt.Errorf("media: presign part %d of %s: %w", n, sess.ID, err)
			}
		}
		urls[i] = u
	}
	return urls, nil
}

// Get returns the account's session, or [apperr.NotFound].
func (s *Service) Get(ctx context.Context, accountID, id string) (*Session, error) {
	if err := checkUploadID(id); err != nil {
		return nil, err
	}
	return s.o.Store.Upload(ctx, accountID, strings.ToLower(id))
}

// List returns the account's latest sessions for a project (at most
// 50), newest first. It returns [apperr.BadRequest] (details.field
// "projectId") for an id that is not a uuid.
func (s *Service) List(ctx context.Context, accountID, projectID string) ([]Session, error) {
	if _, err := uuid.Parse(projectID); err != nil || len(projectID) != 36 {
		return nil, apperr.New(apperr.BadRequest, "projectId must be a project's UUID").
			WithDetail("field", "projectId").WithDetail("reason", "invalid_uuid")
	}
	return s.o.Store.ListUploads(ctx, accountID, strings.ToLower(projectID), 50)
}

func checkUploadID(id string) error {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return apperr.New(apperr.NotFound, "no upload session %q", id)
	}
	return nil
}

// Media returns the account's completed media at objectKey, for a job.
// It returns [apperr.NotFound] (details.field "mediaObjectKey") for
// unknown media or another account's, and [apperr.Conflict] with
// details.reason "upload_pending" (not completed yet) or "media_expired"
// (past retention, or rejected).
func (s *Service) Media(ctx context.Context, accountID, objectKey string) (*Session, error) {
	sess, err := s.o.Store.UploadByKey(ctx, accountID, objectKey)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, apperr.New(apperr.NotFound, "no media %q in this account; upload it with POST /api/v1/media/upload", objectKey).
			WithDetail("field", "mediaObjectKey").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case sess.Status == Pending:
		return nil, apperr.New(apperr.Conflict, "the upload of %q is not completed yet", objectKey).
			WithDetail("field", "mediaObjectKey").WithDetail("reason", "upload_pending")
	case sess.Status != Completed || !s.now().Before(sess.MediaExpiresAt):
		return nil, apperr.New(apperr.Conflict, "the media %q is no longer kept (media is kept %s after its upload); upload it again", objectKey, Retention).
			WithDetail("field", "mediaObjectKey").WithDetail("reason", "media_expired")
	}
	return sess, nil
}

// partKey is the blob key of part n of an upload.
func partKey(uploadID string, n int) string { return fmt.Sprintf("%s%s/%05d", PartPrefix, uploadID, n) }

// unsafeFilename reports whether filename holds a character [name.Check]
// refuses.
func unsafeFilename(filename string) bool {
	return strings.IndexFunc(filename, name.Unsafe) >= 0
}
