// Package video runs a project's video jobs (docs/media.md): render
// (sidecar, mux_soft, burn_in, and preview: a proxy the editor's player
// can play), extract and analyze. A job is a row of our
// own (kind, mode, status, progress, error, artifacts) worked by the job
// queue; the state machine, the quota and the artifacts live here, ffmpeg
// behind [Runner] (package video/ffmpeg), SQL and River behind [Store].
package video

import (
	"time"

	"github.com/captionqa/captionqa/backend/project"
)

// Kind is what a job does.
type Kind string

const (
	KindRender  Kind = "render"
	KindExtract Kind = "extract"
	// KindAnalyze analyses the media (docs/media.md, Analysis): its mode
	// is always [ModeAnalyze].
	KindAnalyze Kind = "analyze"
)

// ModeAnalyze is the one mode of an analyze job.
const ModeAnalyze = "analyze"

// Modes lists every job mode, render, extract and analyze (the served
// contract's listJobs mode filter). Read-only.
var Modes = []string{ModeSidecar, ModeMuxSoft, ModeBurnIn, ModePreview, ModeSoftTrack, ModeBroadcastCC, ModeOCRBurned, ModeAnalyze}

// Modes of a render job.
const (
	ModeSidecar = "sidecar"
	ModeMuxSoft = "mux_soft"
	ModeBurnIn  = "burn_in"
	// ModePreview makes a proxy of the media that every Chromium build
	// plays (docs/media.md, Playing the media): no captions, no engine
	// run, the source's frame rate and timestamps kept.
	ModePreview = "preview"
)

// PreviewContainer is the one container of a preview: WebM, VP9 and
// Opus, codecs every Chromium build decodes (H.264 and AAC are missing
// from builds without the proprietary codecs).
const PreviewContainer = "webm"

// Output deliveries of a render job.
const (
	DeliveryInline = "inline"
	DeliveryURL    = "url"
)

// Status is a job's state. The moves (written into the served contract):
//
//	queued  → running, canceled
//	running → succeeded, failed, canceled,
//	          queued (its process stopped or died; run again)
//
// succeeded, failed and canceled are final.
type Status string

const (
	Queued    Status = "queued"
	Running   Status = "running"
	Succeeded Status = "succeeded"
	Failed    Status = "failed"
	Canceled  Status = "canceled"
)

// Final reports whether s is a final state.
func (s Status) Final() bool { return s == Succeeded || s == Failed || s == Canceled }

// Lane is the queue a job waits in: heavy jobs decode or encode video and
// get half the cores; light ones copy streams or write text.
type Lane string

const (
	LaneHeavy Lane = "video_heavy"
	LaneLight Lane = "video_light"
)

// LaneOf returns the lane of a job: heavy for what decodes or encodes the
// video (burn-in, preview, OCR, CEA-608 from the video's user data), light for
// stream copies, track reads and sidecars.
func LaneOf(j *Job) Lane {
	switch {
	case j.Mode == ModeBurnIn, j.Mode == ModePreview, j.Mode == ModeOCRBurned, j.Mode == ModeAnalyze, j.Mode == ModeBroadcastCC && j.TrackIndex < 0:
		return LaneHeavy
	}
	return LaneLight
}

// Job is one video job.
type Job struct {
	ID        string // uuid
	AccountID string
	ProjectID string
	Kind      Kind
	Mode      string
	Preset    string
	// FixProfile is the engine's fix profile for the delivery ("" warns
	// only).
	FixProfile     string
	OutputDelivery string
	// MediaKey is the source media's objectKey ("" for a sidecar).
	MediaKey string
	// Container ("mp4" or "mkv") and SubtitleCodec ("mov_text", "srt",
	// "webvtt" or "ass") shape a mux_soft output.
	Container     string
	SubtitleCodec string
	// Language tags the caption track (ISO 639-2; "" takes the
	// timeline's).
	Language string
	// IRRevision is the timeline revision the job renders, fixed when it
	// is accepted (for an extract, the revision current then; 0 for an
	// empty project).
	IRRevision int
	// TrackIndex is an extract's subtitle stream, counted among the
	// subtitle streams; -1 when it reads none.
	TrackIndex int
	// ResultRevision is the timeline revision an extract's captions
	// became; 0 until it succeeded.
	ResultRevision int
	// MediaSeconds is the source's duration (0 for a sidecar), for the
	// wait estimate and the timeout.
	MediaSeconds float64
	// PixelRate is the source video's pixels a media second (width x
	// height x frames a second; 0 when unknown), which a decode or an
	// encode costs in proportion to: set when the job is accepted, and
	// read back from the media for the wait estimate ([workScale]).
	PixelRate float64

	Status   Status
	Progress float64 // 0 to 1
	// Run counts the job's runs: a run cut off by a crash is run again
	// as Run+1, and what an older run does afterwards is ignored.
	Run         int
	CreatedAt   time.Time
	StartedAt   time.Time
	FinishedAt  time.Time
	HeartbeatAt time.Time
	Error       *JobError
	// Output is an inline sidecar's caption body, OutputType its media
	// type.
	Output     string
	OutputType string
	// ExportID groups the job's artifacts (an export of the project).
	ExportID  string
	Artifacts []project.Artifact
	// Pool and PoolDay are the daily pool the job's run was taken from,
	// given back if it fails or is canceled.
	Pool    string
	PoolDay time.Time

	// RemainingRuns is what the daily pool holds after the job was
	// accepted; set by [Service.Render] only.
	RemainingRuns int
	// EstimatedWaitSeconds is set by the service on queued jobs.
	EstimatedWaitSeconds int
}

// JobError is why a job failed, or that it was canceled.
type JobError struct {
	Code    string
	Message string
}

// Job error codes (the served contract lists them).
const (
	ErrCodeFFmpeg = "ffmpeg_failed"
	// ErrCodeMemoryLimit: ffmpeg or tesseract went over its memory limit.
	ErrCodeMemoryLimit = "memory_limit"
	// ErrCodeStorageQuota: the job's file did not fit the account's
	// storage quota (docs/api.md, Storage); nothing was kept.
	ErrCodeStorageQuota = "storage_quota"
	ErrCodeTimeout      = "timeout"
	ErrCodeCanceled     = "canceled"
	ErrCodeInterrupted  = "interrupted"
	ErrCodeMediaExpired = "media_expired"
	ErrCodeRevisionGone = "revision_gone"
	ErrCodeEngine       = "processing_failed"
	ErrCodeNoVideo      = "no_video_stream"
	// Extract failures.
	ErrCodeNoCaptions = "no_captions"
	ErrCodeNoCC       = "no_closed_captions"
	ErrCodeNoOCR      = "no_captions_detected"
)
