// Package ffmpeg is the ffmpeg adapter of the video jobs: it implements
// [video.Runner] (mux_soft and burn_in renders) and [media.Prober]
// (ffprobe), and is the only package that runs processes.
//
// Every run works in a folder of its own under [Options.WorkDir], named
// job-<pid>-<random> so that [Runner.SweepWorkDir] can tell the folders
// of dead processes. The media is read in place: from a [blob.Local]
// store through a symlink and ffmpeg's subfile protocol, from any other
// store through a copy. Inside the folder every file has a fixed name
// (input, subs.<ext>, output.<ext>) and ffmpeg runs there, so no user
// text reaches an argv or a filtergraph. Inputs are opened with a
// protocol and a format whitelist, so a playlist posing as an MP4 cannot
// make ffmpeg read other files.
//
// Command lines are built with github.com/u2takey/ffmpeg-go, used only
// for its GetArgs; the process is run by this package's supervisor
// (supervise.go): its own process group, SIGTERM then SIGKILL on cancel,
// a niceness so the HTTP server stays responsive.
package ffmpeg

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video"
)

var (
	_ video.Runner = (*Runner)(nil)
	_ media.Prober = (*Runner)(nil)
	_ video.Output = (*output)(nil)
)

// ffmpeg-go logs every command it compiles through the standard logger,
// paths included. We never call its Compile or Run, which are the only
// readers, but switch it off once, before any goroutine could race on it,
// in case a later version logs from GetArgs too.
func init() { ffmpeggo.LogCompiledCommand = false }

// Defaults of [Options].
const (
	DefaultGrace = 3 * time.Second
	DefaultNice  = 10
)

// Options configure [New].
type Options struct {
	// FFmpeg and FFprobe are the binaries; default "ffmpeg" and
	// "ffprobe" looked up on PATH.
	FFmpeg, FFprobe string
	// WorkDir holds one folder per run (required; created if missing).
	WorkDir string
	// Blobs holds the media (required).
	Blobs blob.Store
	// Logger receives a line per render and warnings; default discards.
	Logger *slog.Logger
	// Grace is how long a canceled ffmpeg has between SIGTERM and
	// SIGKILL; default [DefaultGrace].
	Grace time.Duration
	// Nice is the niceness ffmpeg and ffprobe run at (through nice -n):
	// 0 means [DefaultNice], a negative value runs them without nice.
	Nice int
	// MemoryLimit is the address space (bytes, RLIMIT_AS) ffmpeg and
	// ffprobe may map when they read media; 0 means [DefaultMemoryLimit],
	// a negative value sets none. OCRMemoryLimit is tesseract's, default
	// [DefaultOCRMemoryLimit]. A run over its limit fails with a
	// *[video.RunError] whose OutOfMemory is set.
	MemoryLimit, OCRMemoryLimit int64
}

// Runner runs ffmpeg and ffprobe. It is safe for concurrent use.
type Runner struct {
	ffmpegBin, ffprobeBin string
	nice                  string // nice's path, "" to run without it
	niceness              int
	workDir               string
	blobs                 blob.Store
	log                   *slog.Logger
	grace                 time.Duration
	mem, ocrMem           int64 // bytes; 0 for none
}

// New returns a Runner. It fails when WorkDir or Blobs is missing, when a
// binary (ffmpeg, ffprobe, nice) cannot be found, or when WorkDir cannot
// be created. It does not run ffmpeg: see [Runner.Check].
func New(o Options) (*Runner, error) {
	if o.WorkDir == "" {
		return nil, errors.New("ffmpeg: new: WorkDir is required")
	}
	if o.Blobs == nil {
		return nil, errors.New("ffmpeg: new: Blobs is required")
	}
	r := &Runner{blobs: o.Blobs, log: o.Logger, grace: o.Grace, niceness: o.Nice}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.grace <= 0 {
		r.grace = DefaultGrace
	}
	if r.niceness == 0 {
		r.niceness = DefaultNice
	}
	r.mem = memLimit(o.MemoryLimit, DefaultMemoryLimit)
	r.ocrMem = memLimit(o.OCRMemoryLimit, DefaultOCRMemoryLimit)
	var err error
	if r.ffmpegBin, err = lookPath(o.FFmpeg, "ffmpeg"); err != nil {
		return nil, err
	}
	if r.ffprobeBin, err = lookPath(o.FFprobe, "ffprobe"); err != nil {
		return nil, err
	}
	if r.niceness > 0 {
		if r.nice, err = lookPath("", "nice"); err != nil {
			return nil, err
		}
	}
	// Absolute, because each process runs with its run folder as cwd.
	if r.workDir, err = filepath.Abs(o.WorkDir); err != nil {
		return nil, fmt.Errorf("ffmpeg: new: work dir: %w", err)
	}
	if err := os.MkdirAll(r.workDir, 0o700); err != nil {
		return nil, fmt.Errorf("ffmpeg: new: work dir: %w", err)
	}
	return r, nil
}

// memLimit is a configured limit or its default; 0 for none.
func memLimit(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// lookPath resolves a configured binary, or name on PATH when path is
// empty, to an absolute path: processes run in their run folder, where a
// relative path would mean something else.
func lookPath(path, name string) (string, error) {
	if path == "" {
		path = name
	}
	p, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("ffmpeg: new: %s: %w", name, err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("ffmpeg: new: %s: %w", name, err)
	}
	return abs, nil
}
