package ffmpeg

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// BenchmarkAnalyze10Min analyses a 10-minute 1280x720 25 fps H.264
// programme (AAC sound, a pink-noise bed, a line every 4 s, a cut every
// 10 s) through Runner.Analyze, both stages at once. It reports the
// real-time factor and each stage's wall time (docs/media.md, Analysis:
// the target is 20 times real time on 2 cores).
func BenchmarkAnalyze10Min(b *testing.B) {
	const seconds, fps = 600, 25
	sources := []string{"testsrc2", "smptebars", "rgbtestsrc", "color:red", "mandelbrot", "color:blue", "testsrc", "smptehdbars"}
	var spec programme.Spec
	spec.Width, spec.Height, spec.Container, spec.Bed, spec.BedDB = 1280, 720, "mp4", programme.BedPink, -36
	for i := range seconds / 10 {
		spec.Scenes = append(spec.Scenes, programme.Scene{Source: sources[i%len(sources)], Frames: 10 * fps})
	}
	spec.Lines = spoken(seconds/4-1, 4000)
	truth := programme.Cached(b, spec)

	stages := &stageTimes{}
	r, store := newTestRunner(b, func(o *Options) { o.Logger = slog.New(stages) })
	put(b, store, "prog", truth.Path)
	aspec := video.AnalyzeSpec{
		MediaKey: "prog", Container: "mp4", Video: true, Audio: true,
		FrameRateNum: fps, FrameRateDen: 1, DurationSeconds: seconds,
	}
	b.ReportAllocs()
	var cuts, speech int
	for b.Loop() {
		a, err := r.Analyze(context.Background(), aspec, nil)
		if err != nil {
			b.Fatal(err)
		}
		cuts, speech = len(a.Video.ShotChanges), len(a.Audio.Speech)
	}
	if cuts != len(truth.Cuts) {
		b.Errorf("%d cuts, want %d", cuts, len(truth.Cuts))
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(seconds/per, "realtime-x")
	picture, sound := stages.mean()
	b.ReportMetric(picture.Seconds(), "picture-s")
	b.ReportMetric(sound.Seconds(), "sound-s")
	b.ReportMetric(float64(speech), "segments")
}

// stageTimes is a log handler that keeps the stage times of Analyze's
// "ffmpeg: analyzed" lines.
type stageTimes struct {
	mu             sync.Mutex
	n              int
	picture, sound time.Duration
}

func (s *stageTimes) Enabled(context.Context, slog.Level) bool { return true }
func (s *stageTimes) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s *stageTimes) WithGroup(string) slog.Handler            { return s }

func (s *stageTimes) Handle(_ context.Context, rec slog.Record) error {
	if rec.Message != "ffmpeg: analyzed" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	rec.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "picture":
			s.picture += a.Value.Duration()
		case "sound":
			s.sound += a.Value.Duration()
		}
		return true
	})
	return nil
}

func (s *stageTimes) mean() (picture, sound time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return 0, 0
	}
	return s.picture / time.Duration(s.n), s.sound / time.Duration(s.n)
}
