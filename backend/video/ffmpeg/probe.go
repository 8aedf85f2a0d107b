package ffmpeg

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video"
)

// probeTimeout bounds each ffprobe call: a sane file takes 0.1–0.3 s, but
// a machine busy with renders (and tests under -race) was seen to need
// over 15 s; a file that takes this long is pathological anyway.
const probeTimeout = 45 * time.Second

// Probe describes the media at key (ffprobe's format and streams, and
// whether the video carries closed captions).
//
// Errors: apperr.ProcessingFailed with details.reason "unreadable_media"
// when ffprobe cannot read it, refuses its format (an HLS playlist, say),
// takes longer than 15 s, or finds neither video nor audio; the store's
// errors (apperr.NotFound when there is no object); ctx's error (wrapped)
// when ctx ended.
func (r *Runner) Probe(ctx context.Context, key string) (*media.Probe, error) {
	src, err := r.locate(ctx, key)
	if err != nil {
		return nil, err
	}
	dir, done, err := r.stagedRun(ctx, src)
	if err != nil {
		return nil, err
	}
	defer done()
	url := src.url()
	out, err := r.ffprobe(ctx, dir, url, streamsQuery...)
	if err != nil {
		return nil, err
	}
	p, err := decodeProbe(out)
	if err != nil {
		return nil, err
	}
	if p.ClosedCaptions || p.Video() == nil {
		return p, nil
	}
	out, err = r.ffprobe(ctx, dir, url, a53Query...)
	if err != nil {
		return nil, err
	}
	if p.ClosedCaptions, err = hasA53(out); err != nil {
		return nil, err
	}
	return p, nil
}

// ffprobe runs ffprobe on the staged input with both whitelists and JSON
// output, within probeTimeout. Errors: unreadable (see [Runner.Probe])
// when ffprobe fails or times out; ctx's error when ctx ended; an error
// when it could not run.
func (r *Runner) ffprobe(ctx context.Context, dir, url string, args ...string) ([]byte, error) {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	out, err := r.capture(pctx, dir, r.ffprobeBin, r.mem, probeArgs(url, args...)...)
	var re *video.RunError
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		return nil, err
	case errors.Is(err, context.DeadlineExceeded):
		return nil, unreadable(fmt.Sprintf("ffprobe took longer than %s", probeTimeout))
	case errors.As(err, &re):
		return nil, unreadable(shortError(re.Stderr, url)).Wrap(err)
	}
	return nil, err
}

// Queries of Probe's two ffprobe calls. Read-only.
var (
	streamsQuery = []string{"-show_format", "-show_streams"}
	// A/53 captions ride in the video's frames: the side data of the
	// first 60 frames of the first real video stream tells.
	a53Query = []string{"-select_streams", "V:0", "-read_intervals", "%+#60", "-show_entries", "frame_side_data=side_data_type"}
)

// probeArgs returns ffprobe's arguments: args between the options every
// call has (errors only, both whitelists, JSON) and the input's url.
func probeArgs(url string, args ...string) []string {
	argv := append([]string{"-v", "error",
		"-protocol_whitelist", protocolWhitelist, "-format_whitelist", formatWhitelist}, args...)
	return append(argv, "-of", "json", url)
}

// unreadable is the error of media ffmpeg cannot use.
func unreadable(why string) *apperr.Error {
	return apperr.New(apperr.ProcessingFailed, "media is unreadable: %s", why).WithDetail("reason", "unreadable_media")
}

// logPrefix is the "[hls @ 0x55d0c1a0] " ffmpeg puts before a component's
// message; the address means nothing to a client. Read-only.
var logPrefix = regexp.MustCompile(`^\[([^\]@ ]+) @ 0x[0-9a-f]+\] `)

// shortError turns ffprobe's stderr into a line for a client: the last
// three lines, without addresses, naming the input "input".
func shortError(stderr, url string) string {
	var lines []string
	for l := range strings.Lines(stderr) {
		l = strings.TrimSpace(strings.ReplaceAll(l, url, inputName))
		if l != "" {
			lines = append(lines, logPrefix.ReplaceAllString(l, "$1: "))
		}
	}
	if len(lines) == 0 {
		return "ffprobe failed"
	}
	s := strings.Join(lines[max(0, len(lines)-3):], "; ")
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}
