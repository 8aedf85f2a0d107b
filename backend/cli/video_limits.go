package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// videoLimits sets the video caps of serve's flags on cfg: the longest
// media, the largest picture (WIDTHxHEIGHT), and the memory limits of
// ffmpeg and tesseract (a size, or -1 for none). Empty and zero values
// keep the defaults.
func videoLimits(cfg *server.Config, duration time.Duration, picture, ffmpegMemory, ocrMemory string) error {
	if duration < 0 || cfg.MaxFrameRate < 0 || cfg.VideoJobsPerAccount < 0 {
		return fmt.Errorf("--max-media-duration, --max-frame-rate and --video-jobs-per-account cannot be negative")
	}
	cfg.MaxMediaSeconds = duration.Seconds()
	if picture != "" {
		w, h, ok := strings.Cut(strings.ToLower(picture), "x")
		wi, werr := strconv.Atoi(w)
		hi, herr := strconv.Atoi(h)
		if !ok || werr != nil || herr != nil || wi < 1 || hi < 1 || wi > 1<<16 || hi > 1<<16 {
			return fmt.Errorf("--max-picture is WIDTHxHEIGHT such as 4096x2304, not %q", picture)
		}
		cfg.MaxPicturePixels = wi * hi
	}
	for _, m := range []struct {
		flag, value string
		dst         *int64
	}{{"--ffmpeg-memory", ffmpegMemory, &cfg.FFmpegMemoryLimit}, {"--tesseract-memory", ocrMemory, &cfg.TesseractMemoryLimit}} {
		switch strings.TrimSpace(m.value) {
		case "":
		case "-1":
			*m.dst = -1
		default:
			n, err := parseSize(m.value)
			if err != nil || n < 64<<20 {
				return fmt.Errorf("%s is a size of at least 64MiB such as 2GiB, or -1 for none, not %q", m.flag, m.value)
			}
			*m.dst = n
		}
	}
	return nil
}
