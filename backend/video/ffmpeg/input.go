package ffmpeg

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/captionqa/captionqa/backend/blob"
)

// runPrefix starts every run folder's name: job-<pid>-<random>, so that
// SweepWorkDir can tell whose it is.
const runPrefix = "job-"

// newRun creates a run folder under the work dir and returns its path.
func (r *Runner) newRun() (string, error) {
	dir, err := os.MkdirTemp(r.workDir, runPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", fmt.Errorf("ffmpeg: run folder: %w", err)
	}
	return dir, nil
}

// stagedRun makes a run folder holding src as its input; done removes
// the folder, whatever the run left in it. Errors: those of [Runner.stage].
func (r *Runner) stagedRun(ctx context.Context, src source) (dir string, done func(), err error) {
	if dir, err = r.newRun(); err != nil {
		return "", nil, err
	}
	done = func() { r.removeRun(dir) }
	if err := r.stage(ctx, dir, src); err != nil {
		done()
		return "", nil, err
	}
	return dir, done, nil
}

// removeRun removes a run folder; a failure is only logged, since the
// orphan sweeper removes what is left.
func (r *Runner) removeRun(dir string) {
	if err := os.RemoveAll(dir); err != nil {
		r.log.Warn("ffmpeg: remove run folder", "dir", dir, "err", err)
	}
}

// source is where a media object's bytes are: a local file (from offset
// on) or only in the blob store.
type source struct {
	key    string
	file   string // "" when the store has no local files
	offset int64
}

// locate finds key's object. Errors: those of [blob.Local.LocalFile]
// (apperr.NotFound when there is no object); for other stores, none: a
// missing object shows when it is copied.
func (r *Runner) locate(ctx context.Context, key string) (source, error) {
	local, ok := r.blobs.(blob.Local)
	if !ok {
		return source{key: key}, nil
	}
	file, offset, err := local.LocalFile(ctx, key)
	if err != nil {
		return source{}, fmt.Errorf("ffmpeg: media %s: %w", key, err)
	}
	// The symlink is read from the run folder.
	if file, err = filepath.Abs(file); err != nil {
		return source{}, fmt.Errorf("ffmpeg: media %s: %w", key, err)
	}
	return source{key: key, file: file, offset: offset}, nil
}

// url is how ffmpeg and ffprobe open the staged input: a local file
// through the subfile protocol, which skips the store's header without a
// copy (end 0 reads to the end of the file); a copy as a plain file. The
// file: prefix keeps a name with a colon from being taken for a protocol.
func (s source) url() string {
	if s.file != "" {
		return "subfile,,start," + strconv.FormatInt(s.offset, 10) + ",end,0,,:" + inputName
	}
	return "file:" + inputName
}

// stage puts the media in dir under inputName: a symlink to the local
// file, or a copy of the object. Errors: those of the store's Get
// (apperr.NotFound when there is no object), ctx's error, I/O errors.
func (r *Runner) stage(ctx context.Context, dir string, s source) error {
	dst := filepath.Join(dir, inputName)
	if s.file != "" {
		if err := os.Symlink(s.file, dst); err != nil {
			return fmt.Errorf("ffmpeg: stage media: %w", err)
		}
		return nil
	}
	rc, _, err := r.blobs.Get(ctx, s.key, nil)
	if err != nil {
		return fmt.Errorf("ffmpeg: media %s: %w", s.key, err)
	}
	defer rc.Close()
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("ffmpeg: stage media: %w", err)
	}
	_, err = io.Copy(f, ctxReader{ctx, rc})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ffmpeg: stage media %s: %w", s.key, err)
	}
	return nil
}

// ctxReader stops a long copy when ctx ends: a store's reader need not
// watch it.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
