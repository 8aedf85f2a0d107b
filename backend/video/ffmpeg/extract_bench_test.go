package ffmpeg

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// benchExtract extracts spec from clip b.N times and reports x_realtime:
// media seconds per wall second (issue 17 asks at least 50 for
// soft_track, 10 for broadcast_cc at 720p).
func benchExtract(b *testing.B, clip string, spec video.ExtractSpec) {
	r, store := newTestRunner(b, nil)
	put(b, store, spec.MediaKey, clip)
	start := time.Now()
	for b.Loop() {
		if _, err := r.Extract(context.Background(), spec, func(float64) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(spec.DurationSeconds*float64(b.N)/time.Since(start).Seconds(), "x_realtime")
}

// BenchmarkExtractSoftTrack reads the SubRip track of 60 s of 720p MKV.
func BenchmarkExtractSoftTrack(b *testing.B) {
	clip := fftest.Clip(b, fftest.ClipOptions{Width: 1280, Height: 720, Seconds: 60, Container: "mkv",
		Tracks: []fftest.Track{{Language: "eng", Cues: testCues}}})
	benchExtract(b, clip, video.ExtractSpec{Mode: video.ModeSoftTrack, MediaKey: "media/bench", Container: "matroska",
		TrackIndex: 0, DurationSeconds: 60})
}

// BenchmarkExtractBroadcastCC decodes 60 s of 720p30 H.264 for its A/53
// captions (pop-on captions throughout).
func BenchmarkExtractBroadcastCC(b *testing.B) {
	cc := &cc608{pairs: map[int][2]byte{}}
	for i := range 20 {
		cc.popOn([]string{"Caption number", "of the benchmark."}, 60+i*85, 120+i*85)
	}
	clip := fftest.A53(b, fftest.A53Options{Width: 1280, Height: 720, Frames: 1800, Pairs: cc.pairs})
	benchExtract(b, clip, video.ExtractSpec{Mode: video.ModeBroadcastCC, MediaKey: "media/bench", Container: "mp4",
		TrackIndex: -1, DurationSeconds: 60})
}
