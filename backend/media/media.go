// Package media is the source media of a project's video jobs
// (docs/media.md): presigned upload sessions (one signed PUT, or parts and a
// complete step, as S3 has) served by the appliance itself or, when the
// blob store presigns, by the store, the probe of what arrived, and its
// 24-hour retention. It knows no HTTP, SQL or ffmpeg:
// the store, the blob store and the prober are injected.
package media

import (
	"context"
	"time"
)

// Limits of uploads (docs/media.md, Limits; the served contract states
// them too).
const (
	// SinglePutMax is the largest upload given one signed PUT URL; above
	// it the session is multipart.
	SinglePutMax = 64 << 20
	// MinPartSize is the part size of a multipart session, raised (in
	// whole MiB) when the file would need more than MaxParts parts.
	MinPartSize = 16 << 20
	// MaxParts bounds the parts of one session.
	MaxParts = 1000
	// DefaultMaxBytes is the largest media accepted unless configured.
	DefaultMaxBytes = 8 << 30
	// MaxOpenSessions bounds an account's pending upload sessions.
	MaxOpenSessions = 8
	// MinURLTTL, MaxURLTTL and DefaultURLTTL bound urlTtlSeconds.
	MinURLTTL     = 60
	MaxURLTTL     = 86400
	DefaultURLTTL = 3600
	// Retention is how long completed media is kept.
	Retention = 24 * time.Hour
	// CompleteGrace is how long after its URLs expire a pending session
	// may still be completed (a part that started just before the expiry
	// must be able to finish), and after which the sweeper drops it.
	CompleteGrace = time.Hour
	// MaxFilenameBytes bounds the file name kept for display.
	MaxFilenameBytes = 255
)

// Prefixes of the blob keys: parts under uploads/<uploadId>/<n>, the
// assembled media at media/<uploadId> (the session's objectKey).
const (
	PartPrefix  = "uploads/"
	MediaPrefix = "media/"
)

// Status is an upload session's state (pending → completed | rejected;
// pending or completed → expired).
type Status string

const (
	// Pending: URLs issued, parts may arrive.
	Pending Status = "pending"
	// Completed: assembled and probed; the media is kept until
	// MediaExpiresAt.
	Completed Status = "completed"
	// Rejected: complete found media ffmpeg cannot read; nothing is kept.
	Rejected Status = "rejected"
	// Expired: past retention (or never completed); nothing is kept.
	Expired Status = "expired"
)

// Session is one upload of source media into a project.
type Session struct {
	ID          string // uuid: the uploadId
	AccountID   string
	ProjectID   string
	ObjectKey   string // MediaPrefix + ID
	Filename    string // sanitised, for display and downloads only
	ContentType string
	Bytes       int64
	Multipart   bool
	PartSize    int64
	PartCount   int
	Status      Status
	CreatedAt   time.Time
	// ExpiresAt ends the signed URLs.
	ExpiresAt time.Time
	// CompletedAt and MediaExpiresAt are set once completed.
	CompletedAt    time.Time
	MediaExpiresAt time.Time
	// Probe is what ffprobe found, once completed.
	Probe *Probe
	// Received lists the parts stored so far, by number.
	Received []Part
	// RejectReason says why complete refused the media.
	RejectReason string
}

// Part is one stored part of a session.
type Part struct {
	Number int
	Bytes  int64
	// ETag is the blob store's, unquoted: the hex SHA-256 of the part's
	// bytes on the filesystem store, S3's ETag on an S3 store.
	ETag string
}

// Probe describes media ffmpeg can read.
type Probe struct {
	// Container is "mp4" (also MOV and the ISO family), "matroska",
	// "webm" or "mpegts".
	Container string
	// FormatName is ffprobe's format_name.
	FormatName      string
	DurationSeconds float64
	Streams         []Stream
	// ClosedCaptions is set when the video carries CEA-608/708 captions
	// (A/53 side data found in its first frames, or a c608 track).
	ClosedCaptions bool
}

// Stream is one stream of probed media.
type Stream struct {
	Index int    // ffprobe's absolute index
	Type  string // "video", "audio", "subtitle" or "data"
	Codec string
	// Language is the ISO 639-2 tag, "" when untagged.
	Language string
	Title    string
	// Width, Height and FrameRate describe a video stream.
	Width, Height int
	FrameRate     float64
	// Channels describes an audio stream.
	Channels int
	// SubtitleIndex is a subtitle stream's position among the subtitle
	// streams (an extract job's trackIndex); Text is set for text codecs
	// (subrip, ass, webvtt, mov_text), unset for bitmaps.
	SubtitleIndex   int
	Text            bool
	Default, Forced bool
}

// Video returns the first video stream, or nil.
func (p *Probe) Video() *Stream {
	for i := range p.Streams {
		if p.Streams[i].Type == "video" {
			return &p.Streams[i]
		}
	}
	return nil
}

// Prober reads media the blob store holds (video/ffmpeg's ffprobe).
type Prober interface {
	// Probe describes the object at key. It returns an error of kind
	// apperr.ProcessingFailed (details.reason "unreadable_media", with
	// ffprobe's words in the message) when ffmpeg cannot read it.
	Probe(ctx context.Context, key string) (*Probe, error)
}
