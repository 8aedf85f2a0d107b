package ffmpeg

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
)

// captureLimit bounds what capture keeps: ffprobe's JSON for media with
// very many streams or a huge tag is refused rather than held in memory.
const captureLimit = 4 << 20

// capture runs bin with args in dir under the memory limit mem (as run
// does) and returns its
// standard output. Errors: run's, and an error when the output exceeds
// captureLimit.
func (r *Runner) capture(ctx context.Context, dir, bin string, mem int64, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := r.run(ctx, dir, bin, mem, args, func(rd io.Reader) {
		_, _ = io.Copy(&out, io.LimitReader(rd, captureLimit+1))
	})
	if err != nil {
		return nil, err
	}
	if out.Len() > captureLimit {
		return nil, fmt.Errorf("ffmpeg: %s wrote over %d bytes", filepath.Base(bin), captureLimit)
	}
	return out.Bytes(), nil
}
