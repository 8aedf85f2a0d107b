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
// WebM, 640 px wide, every frame kept at its source time from the
// source's start (within WebM's millisecond), the same duration, the
// sound starting with the source's.
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
			worst = max(worst, math.Abs(got.Frames[i]-(src.Frames[i]-src.Start)))
		}
		// WebM counts milliseconds: half of one, and float noise.
		if worst > 0.0005+1e-6 {
			t.Errorf("a frame moved by %.4f s; want at most half a millisecond", worst)
		}
		// The same end (the file's start is Opus's priming, before 0).
		if d := math.Abs(got.Start + got.Duration - src.Duration); d > 0.0015 {
			t.Errorf("the preview ends at %.4f s; the source %.4f s after its start", got.Start+got.Duration, src.Duration)
		}
		t.Logf("source: start %.6f s, duration %.6f s, %d frames from %.6f to %.6f s; preview: start %.6f s, duration %.6f s, frames from %.6f to %.6f s",
			src.Start, src.Duration, len(src.Frames), src.Frames[0], src.Frames[len(src.Frames)-1],
			got.Start, got.Duration, got.Frames[0], got.Frames[len(got.Frames)-1])
	})
	t.Run("sound starts with the source's", func(t *testing.T) {
		// Opus codes 20 ms frames after a 6.5 ms priming.
		want := src.AudioStart - src.Start
		if d := math.Abs(got.AudioStart - want); d > 0.027 {
			t.Errorf("sound starts at %.4f s; the source's at %.4f s from its start", got.AudioStart, want)
		}
		t.Logf("sound starts at %.4f s, the source's at %.4f s from its start", got.AudioStart, want)
	})
	t.Run("progress", func(t *testing.T) {
		checkProgress(t, reports, 0.9)
	})
	st, err := os.Stat(truth.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("preview %d bytes of the source's %d (%.1f%%), made at %.1fx real time",
		out.Size(), st.Size(), 100*float64(out.Size())/float64(st.Size()), spec.DurationSeconds/elapsed.Seconds())
}
