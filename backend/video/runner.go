package video

import (
	"context"
	"io"

	"github.com/captionqa/captionqa/backend/analysis"
)

// Runner runs ffmpeg for a job (package video/ffmpeg). Each call works in
// a folder of its own, reads the media in place from the blob store (or
// a local copy of it) under fixed names, and never puts a user's name in
// a command line or a filtergraph.
type Runner interface {
	// Render muxes or burns spec.Subtitles into the media at
	// spec.MediaKey, or makes its preview, calling progress (0 to 1, from ffmpeg's progress
	// output, at most about twice a second). When ctx ends ffmpeg is
	// stopped (SIGTERM to its process group, SIGKILL after a grace
	// period) and nothing is returned. Errors: a *[RunError] when ffmpeg
	// fails; ctx's error when canceled.
	Render(ctx context.Context, spec RenderSpec, progress func(float64)) (Output, error)
	// Extract reads the captions of spec's mode from the media: a soft
	// subtitle track as SRT, CEA-608 (A/53 user data or a c608 track) as
	// SCC, burned-in captions by OCR as SRT. Progress follows the frames
	// decoded. Errors: as Render's; an *apperr.Error with
	// details.jobError for media without the captions asked for.
	Extract(ctx context.Context, spec ExtractSpec, progress func(float64)) (*Extracted, error)
	// Analyze analyses the media: shot changes from the picture, speech
	// and a waveform from the sound, streaming (its memory does not grow
	// with the duration). Progress follows the time decoded. Errors: as
	// Render's.
	Analyze(ctx context.Context, spec AnalyzeSpec, progress func(float64)) (*analysis.Analysis, error)
}

// RenderSpec is one mux_soft, burn_in or preview.
type RenderSpec struct {
	Mode     string // ModeMuxSoft, ModeBurnIn or ModePreview
	MediaKey string
	// Container of the output: "mp4" or "mkv" ("webm" for a preview).
	Container string
	// Subtitles is the caption file's text; SubtitleFormat is its format:
	// "srt", "vtt" or "ass" (burn_in always "ass"; a preview has none).
	Subtitles      []byte
	SubtitleFormat string
	// SubtitleCodec is the muxed track's codec: "mov_text" (mp4), "srt",
	// "webvtt" or "ass" (mkv). Unused by burn_in.
	SubtitleCodec string
	// Language is the ISO 639-2 tag of the muxed track ("und" if unknown).
	Language string
	// DurationSeconds is the media's duration, for progress.
	DurationSeconds float64
}

// Output is a finished render: a local file until Close removes it.
type Output interface {
	// Open reads the rendered file.
	Open() (io.ReadCloser, error)
	// Size is the file's length in bytes.
	Size() int64
	// ContentType is the file's media type: video/mp4,
	// video/x-matroska or video/webm.
	ContentType() string
	// Close removes the file and its folder.
	Close() error
}

// RunError is a failed ffmpeg run.
type RunError struct {
	// ExitCode is ffmpeg's exit status (-1 when killed by a signal).
	ExitCode int
	// Stderr is the end of what ffmpeg wrote to its standard error (at
	// most 16 KiB), for the job's error message.
	Stderr string
	// Err is the underlying failure (exec's).
	Err error
	// OutOfMemory is set when the process ran under a memory limit and
	// failed to allocate (docs/security.md, Limits).
	OutOfMemory bool
}

func (e *RunError) Error() string {
	msg := "ffmpeg failed"
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

func (e *RunError) Unwrap() error { return e.Err }

// Extract modes.
const (
	ModeSoftTrack   = "soft_track"
	ModeBroadcastCC = "broadcast_cc"
	ModeOCRBurned   = "ocr_burned"
)

// ExtractSpec is one caption extraction from media.
type ExtractSpec struct {
	Mode     string // ModeSoftTrack, ModeBroadcastCC or ModeOCRBurned
	MediaKey string
	// Container is the probe's ("mp4", "matroska", "webm", "mpegts"):
	// the demuxer a decode is forced to.
	Container string
	// TrackIndex is the subtitle stream's position among the subtitle
	// streams (soft_track; broadcast_cc from a c608 track), -1 for none.
	TrackIndex int
	// Width, Height and FrameRate describe the video (ocr_burned).
	Width, Height int
	FrameRate     float64
	// DurationSeconds is the media's duration, for progress.
	DurationSeconds float64
}

// AnalyzeSpec is one analysis of a programme ([analysis.Analysis]): its
// shot changes from the picture, its speech and waveform from the sound.
type AnalyzeSpec struct {
	MediaKey string
	// Container is the probe's: the demuxer the decodes are forced to.
	Container string
	// Video and Audio say which stages run: a stream the media lacks is
	// not decoded, and its part of the analysis is nil.
	Video, Audio bool
	// FrameRate is the probe's, as a fraction (24000/1001).
	FrameRateNum, FrameRateDen int64
	// DurationSeconds is the media's duration, for progress.
	DurationSeconds float64
}

// Extracted is the caption file an extraction produced.
type Extracted struct {
	// Data is the file; Format its caption format ("srt" or "scc").
	Data   []byte
	Format string
}
