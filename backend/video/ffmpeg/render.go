package ffmpeg

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

// Render muxes (mux_soft) or burns (burn_in) spec.Subtitles into the
// media at spec.MediaKey, or makes its preview, in a run folder of its own, reporting progress
// as [video.Runner] says. The returned Output's Close removes the folder;
// on any error the folder is removed before Render returns.
//
// Errors: an error for a spec this adapter cannot render (see
// renderArgs); the store's errors for the media (apperr.NotFound when it
// is gone); ctx's error (wrapped, for errors.Is) when ctx ended; a
// *[video.RunError] when ffmpeg failed.
func (r *Runner) Render(ctx context.Context, spec video.RenderSpec, report func(float64)) (video.Output, error) {
	src, err := r.locate(ctx, spec.MediaKey)
	if err != nil {
		return nil, err
	}
	args, err := renderArgs(spec, src.url())
	if err != nil {
		return nil, err
	}
	dir, err := r.newRun()
	if err != nil {
		return nil, err
	}
	out, err := r.render(ctx, dir, src, spec, args, report)
	if err != nil {
		r.removeRun(dir)
		return nil, err
	}
	return out, nil
}

// render stages the inputs in dir and runs ffmpeg there.
func (r *Runner) render(ctx context.Context, dir string, src source, spec video.RenderSpec, args []string, report func(float64)) (*output, error) {
	if err := r.stage(ctx, dir, src); err != nil {
		return nil, err
	}
	// A preview has no subtitles.
	if spec.Mode != video.ModePreview {
		if err := os.WriteFile(filepath.Join(dir, subsPrefix+spec.SubtitleFormat), spec.Subtitles, 0o600); err != nil {
			return nil, fmt.Errorf("ffmpeg: write subtitles: %w", err)
		}
	}
	start := time.Now()
	p := newProgress(ctx, spec.DurationSeconds, report)
	if err := r.run(ctx, dir, r.ffmpegBin, r.mem, args, p.read); err != nil {
		r.log.Warn("ffmpeg: render failed", "mode", spec.Mode, "key", spec.MediaKey, "elapsed", time.Since(start), "err", err)
		return nil, err
	}
	path := filepath.Join(dir, outputBase+spec.Container)
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("ffmpeg: render output: %w", err)
	}
	r.log.Info("ffmpeg: rendered", "mode", spec.Mode, "key", spec.MediaKey, "bytes", st.Size(), "elapsed", time.Since(start))
	return &output{dir: dir, path: path, size: st.Size(), contentType: contentTypes[spec.Container]}, nil
}

// output is a rendered file in its run folder.
type output struct {
	dir, path   string
	size        int64
	contentType string
}

// Open reads the rendered file; its errors are os.Open's.
func (o *output) Open() (io.ReadCloser, error) { return os.Open(o.path) }

// Size is the file's length in bytes.
func (o *output) Size() int64 { return o.size }

// ContentType is video/mp4, video/x-matroska or video/webm.
func (o *output) ContentType() string { return o.contentType }

// Close removes the run folder; closing twice is not an error. A reader
// opened before keeps reading the unlinked file.
func (o *output) Close() error {
	if err := os.RemoveAll(o.dir); err != nil {
		return fmt.Errorf("ffmpeg: remove run folder: %w", err)
	}
	return nil
}
