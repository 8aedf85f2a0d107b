package fix

import (
	"math/rand/v2"
	"testing"
	"time"
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

// TestApplyLinear guards the speed budget loosely (the machine may be
// busy): the most thorough profile on 40,000 cues must stay well under a
// second, which only a linear implementation does.
func TestApplyLinear(t *testing.T) {
	t.Parallel()
	if testing.Short() || raceEnabled {
		t.Skip("timing test: skipped in -short mode and under the race detector")
	}
	in := genTrack(rand.New(rand.NewPCG(40_000, 1)), 40_000)
	start := time.Now()
	res := Apply(in, AutoSplitCPS, netflix)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("auto-split-cps on 40,000 cues took %v", d)
	}
	if len(res.Changes) == 0 {
		t.Fatal("the generated track should need fixes")
	}
}
