package ffmpeg

import (
	"context"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestPreview makes the preview of an MPEG-2 programme: VP9 and Opus in
// WebM, 640 px wide, every frame kept at its source time (within WebM's
// millisecond), the sound starting with the source's.
func TestPreview(t *testing.T) {
	t.Parallel()
	truth := programme.Cached(t, programme.Unplayable())
	r, store := newTestRunner(t, nil)
	put(t, store, "media/programme", truth.Path)
	spec := video.RenderSpec{Mode: video.ModePreview, MediaKey: "media/programme", Container: video.PreviewContainer,
		DurationSeconds: float64(truth.DurationMs) / 1000}
	var mu sync.Mutex
	var reports []float64
	start := time.Now()
	out, err := r.Render(context.Background(), spec, func(f float64) {
		mu.Lock()
		reports = append(reports, f)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	defer out.Close()
	path := out.(*output).path
	if out.ContentType() != "video/webm" {
		t.Errorf("content type %q, want video/webm", out.ContentType())
	}
	src, got := fftest.TimingOf(t, truth.Path), fftest.TimingOf(t, path)
	if src.VideoCodec != "mpeg2video" || src.AudioCodec != "mp2" || src.Frames[0] < 1 {
		t.Fatalf("the fixture is %s/%s starting at %.3f s; want MPEG-2 and MP2 starting late, as MPEG-TS does", src.VideoCodec, src.AudioCodec, src.Frames[0])
	}
	t.Run("codecs and size", func(t *testing.T) {
		if got.VideoCodec != "vp9" || got.AudioCodec != "opus" || got.Width != 640 || got.Height != 360 {
			t.Errorf("preview %s/%s %dx%d; want vp9/opus 640x360", got.VideoCodec, got.AudioCodec, got.Width, got.Height)
		}
		if got.FrameRate != src.FrameRate {
			t.Errorf("frame rate %s; want the source's %s", got.FrameRate, src.FrameRate)
		}
	})
	t.Run("every frame at its time", func(t *testing.T) {
		if len(got.Frames) != len(src.Frames) {
			t.Fatalf("%d frames; want the source's %d", len(got.Frames), len(src.Frames))
		}
		worst := 0.0
		for i := range src.Frames {
			worst = max(worst, math.Abs(got.Frames[i]-src.Frames[i]))
		}
		// WebM counts milliseconds: half of one, and float noise.
		if worst > 0.0005+1e-6 {
			t.Errorf("a frame moved by %.4f s; want at most half a millisecond", worst)
		}
		t.Logf("source: frames %d, first %.6f s, last %.6f s; preview: first %.6f s, last %.6f s",
			len(src.Frames), src.Frames[0], src.Frames[len(src.Frames)-1], got.Frames[0], got.Frames[len(got.Frames)-1])
	})
	t.Run("sound starts with the source's", func(t *testing.T) {
		// Opus codes 20 ms frames after a 6.5 ms priming.
		if d := math.Abs(got.AudioStart - src.AudioStart); d > 0.027 {
			t.Errorf("sound starts at %.4f s; the source's at %.4f s", got.AudioStart, src.AudioStart)
		}
		t.Logf("sound starts at %.4f s, the source's at %.4f s", got.AudioStart, src.AudioStart)
	})
	t.Run("progress", func(t *testing.T) {
		// The times start at 1.4 s (-copyts); progress still counts
		// from the first one.
		checkProgress(t, reports, 0.9)
		if len(reports) > 1 && reports[0] >= 1 {
			t.Errorf("progress %v: full from the first report", reports)
		}
	})
	st, err := os.Stat(truth.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("preview %d bytes of the source's %d (%.1f%%), made at %.1fx real time",
		out.Size(), st.Size(), 100*float64(out.Size())/float64(st.Size()), spec.DurationSeconds/elapsed.Seconds())
}
