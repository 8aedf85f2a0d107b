package ffmpeg

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Check runs ffmpeg and ffprobe once and checks that ffmpeg has what the
// renders need: the libass ass filter, the libx264 encoder and the
// subfile protocol. Call it at startup. Errors: one naming what could not
// run or what is missing, or ctx's error.
func (r *Runner) Check(ctx context.Context) error {
	if _, err := r.capture(ctx, r.workDir, r.ffprobeBin, 0, "-hide_banner", "-version"); err != nil {
		return fmt.Errorf("ffmpeg: check: ffprobe does not run: %w", err)
	}
	var missing []string
	for _, c := range []struct {
		flag, name, what string
		field            int // the column of the name in ffmpeg's listing
	}{
		{"-filters", "ass", "the ass filter (libass)", 1},
		{"-encoders", "libx264", "the libx264 encoder", 1},
		{"-protocols", "subfile", "the subfile protocol", 0},
	} {
		out, err := r.capture(ctx, r.workDir, r.ffmpegBin, 0, "-hide_banner", c.flag)
		if err != nil {
			return fmt.Errorf("ffmpeg: check: ffmpeg %s does not run: %w", c.flag, err)
		}
		if !listed(out, c.field, c.name) {
			missing = append(missing, c.what)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("ffmpeg: check: %s lacks %s", r.ffmpegBin, strings.Join(missing, ", "))
	}
	return nil
}

// listed reports whether a line of an ffmpeg listing has name in the
// given column (" ... ass  V->V  Render ASS…", " V....D libx264 …").
func listed(out []byte, field int, name string) bool {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > field && f[field] == name {
			return true
		}
	}
	return false
}
