package fix

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/internal/scaling"
)

// BenchmarkApply runs every profile on a generated 40,000-cue track (about
// the size of a 4 MiB file) with many cues over the netflix limits.
func BenchmarkApply(b *testing.B) {
	in := genTrack(rand.New(rand.NewPCG(40_000, 1)), 40_000)
	for _, p := range Profiles() {
		b.Run(string(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Apply(in, p, netflix)
			}
		})
	}
}

// TestApplyLinear checks that the most thorough profile's time grows in
// proportion to the number of cues, on a track with many cues over the
// netflix limits. Its speed is BenchmarkApply's.
func TestApplyLinear(t *testing.T) {
	// Not parallel: the package's other tests would collect and
	// allocate through the timed runs (see package scaling).
	if testing.Short() {
		t.Skip("scaling check: skipped in -short mode")
	}
	build := func(n int) *caption.Track { return genTrack(rand.New(rand.NewPCG(uint64(n), 1)), n) }
	if res := Apply(build(250), AutoSplitCPS, netflix); len(res.Changes) == 0 {
		t.Fatal("the generated track should need fixes")
	}
	scaling.Linear(t, 250, build, func(in *caption.Track) { Apply(in, AutoSplitCPS, netflix) })
}

// realistic are the targets of [BenchmarkApplyRealistic]: the youtube
// preset's limits.
var realistic = Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, Overlaps: true, EmptyCues: true}

// realisticTrack reads the engine benchmark's 4 MiB, 40,000-cue file: a
// few per cent of its cues need a fix, the rest none.
func realisticTrack(tb testing.TB) *caption.Track {
	tb.Helper()
	t, _, err := srt.Parse(bytes.NewReader(synth.SRT(40_000)))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkApplyRealistic runs every profile on the engine benchmark's
// track, where the cost of cues that need nothing dominates.
func BenchmarkApplyRealistic(b *testing.B) {
	in := realisticTrack(b)
	for _, p := range Profiles() {
		b.Run(string(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Apply(in, p, realistic)
			}
		})
	}
}
