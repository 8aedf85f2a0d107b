package ffmpeg

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// benchMux is the mux_soft both mux benchmarks run: 60 s of 720p30 into
// MP4 with a mov_text track.
func benchMux(b *testing.B) (clip string, spec video.RenderSpec) {
	clip = fftest.Clip(b, fftest.ClipOptions{Width: 1280, Height: 720, Seconds: 60})
	return clip, video.RenderSpec{
		Mode: video.ModeMuxSoft, MediaKey: "media/bench", Container: "mp4",
		Subtitles: fftest.SRT(testCues), SubtitleFormat: "srt", SubtitleCodec: "mov_text",
		Language: "eng", DurationSeconds: 60,
	}
}

// BenchmarkMuxSoft renders through Runner.Render: blob lookup, run
// folder, symlink, subfile, nice, supervisor, progress parsing.
func BenchmarkMuxSoft(b *testing.B) {
	clip, spec := benchMux(b)
	r, store := newTestRunner(b, nil)
	put(b, store, spec.MediaKey, clip)
	for b.Loop() {
		out, err := r.Render(context.Background(), spec, func(float64) {})
		if err != nil {
			b.Fatal(err)
		}
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMuxSoftBareFFmpeg runs the same ffmpeg command directly on a
// plain copy of the file: the baseline for BenchmarkMuxSoft.
func BenchmarkMuxSoftBareFFmpeg(b *testing.B) {
	clip, spec := benchMux(b)
	dir := b.TempDir()
	data, err := os.ReadFile(clip)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, inputName), data, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "subs.srt"), spec.Subtitles, 0o600); err != nil {
		b.Fatal(err)
	}
	args, err := renderArgs(spec, "file:"+inputName)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command("ffmpeg", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		if err := os.Remove(filepath.Join(dir, "output.mp4")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBurnIn burns captions into 10 s of 720p30 and reports how many
// times faster than real time it ran.
func BenchmarkBurnIn(b *testing.B) {
	const seconds = 10
	clip := fftest.Clip(b, fftest.ClipOptions{Width: 1280, Height: 720, Seconds: seconds})
	r, store := newTestRunner(b, nil)
	put(b, store, "media/bench", clip)
	spec := video.RenderSpec{
		Mode: video.ModeBurnIn, MediaKey: "media/bench", Container: "mp4",
		Subtitles: ass(1280, 720, testCues), SubtitleFormat: "ass", DurationSeconds: seconds,
	}
	for b.Loop() {
		out, err := r.Render(context.Background(), spec, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(seconds*float64(b.N)/b.Elapsed().Seconds(), "x_realtime")
}
