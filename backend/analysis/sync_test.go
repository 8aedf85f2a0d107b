package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// programme makes n cues of 1 to 5 s apart by 0.1 to 3 s, and the speech
// they caption: each segment starts within ±30 ms of its cue and ends 0
// to 60 ms after it, as a voice-activity detector sees a line spoken
// where it was captioned. Segments that would touch are merged.
func programme(seed uint64, n int) ([]Span, []Segment) {
	rng := rand.New(rand.NewPCG(seed, 1))
	cues := make([]Span, 0, n)
	var speech []Segment
	t := int64(2000)
	for range n {
		d := 1000 + rng.Int64N(4000)
		cues = append(cues, Span{t, t + d})
		s := Segment{StartMs: t + rng.Int64N(61) - 30, EndMs: t + d + rng.Int64N(61), Confidence: 0.9}
		if k := len(speech); k > 0 && s.StartMs <= speech[k-1].EndMs {
			speech[k-1].EndMs = s.EndMs
		} else {
			speech = append(speech, s)
		}
		t += d + 100 + rng.Int64N(2900)
	}
	return cues, speech
}

// shifted returns cues moved by ms and their times multiplied by k
// (before the move).
func shifted(cues []Span, k float64, ms int64) []Span {
	out := make([]Span, len(cues))
	for i, c := range cues {
		out[i] = Span{int64(math.Round(float64(c.StartMs)*k)) + ms, int64(math.Round(float64(c.EndMs)*k)) + ms}
	}
	return out
}

// TestEstimateSyncOffset shifts the captions of synthetic programmes by
// -12 s to +12 s (odd amounts, to test the sub-sample refinement) and
// expects the shift back: median error at most 40 ms, none over 80 ms.
func TestEstimateSyncOffset(t *testing.T) {
	var errs []float64
	for seed := uint64(1); seed <= 4; seed++ {
		cues, speech := programme(seed, 300)
		for off := int64(-12000); off <= 12000; off += 1237 {
			got, ok := EstimateSync(speech, shifted(cues, 1, off))
			if !ok {
				t.Fatalf("seed %d, offset %d: no estimate", seed, off)
			}
			if got.Ratio != 1 {
				t.Errorf("seed %d, offset %d: ratio %v, want 1", seed, off, got.Ratio)
			}
			if got.Confidence < 0.5 {
				t.Errorf("seed %d, offset %d: confidence %.2f, want at least 0.5", seed, off, got.Confidence)
			}
			errs = append(errs, math.Abs(got.OffsetMs+float64(off)))
		}
	}
	slices.Sort(errs)
	median, worst := errs[len(errs)/2], errs[len(errs)-1]
	t.Logf("%d offsets: median error %.1f ms, max %.1f ms", len(errs), median, worst)
	if median > 40 || worst > 80 {
		t.Errorf("median error %.1f ms (want ≤ 40), max %.1f ms (want ≤ 80)", median, worst)
	}
}

// TestEstimateSyncDrift times captions at 25 fps for a 23.976 fps
// programme (every time 25/23.976 too late), shifted 3.2 s: the estimate
// finds the ratio, and after resync every cue starts within 80 ms of its
// speech.
func TestEstimateSyncDrift(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    float64 // caption time = true time · k + off
		off  int64
	}{
		{"25 for 23.976", 25 / (24000.0 / 1001), 3200},
		{"23.976 for 25", (24000.0 / 1001) / 25, -1500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cues, speech := programme(7, 300)
			got, ok := EstimateSync(speech, shifted(cues, tc.k, tc.off))
			if !ok {
				t.Fatal("no estimate")
			}
			if want := 1 / tc.k; math.Abs(got.Ratio-want) > 1e-6 {
				t.Fatalf("ratio %.5f, want %.5f", got.Ratio, want)
			}
			drifted := shifted(cues, tc.k, tc.off)
			worst := 0.0
			for i, c := range drifted {
				// The cue's own speech starts within ±30 ms of its true
				// start: measure against the true start.
				worst = max(worst, math.Abs(float64(got.Map(c.StartMs)-cues[i].StartMs)))
			}
			t.Logf("ratio %.5f offset %.0f ms confidence %.2f, worst start error %.0f ms", got.Ratio, got.OffsetMs, got.Confidence, worst)
			if worst > 80 {
				t.Errorf("after resync a cue starts %.0f ms from its speech, want ≤ 80", worst)
			}
		})
	}
}

// TestEstimateSyncUnrelated expects little confidence when the captions
// belong to another programme.
func TestEstimateSyncUnrelated(t *testing.T) {
	_, speech := programme(1, 300)
	cues, _ := programme(2, 300)
	got, ok := EstimateSync(speech, cues)
	if !ok {
		t.Fatal("no estimate")
	}
	if got.Confidence > 0.3 {
		t.Errorf("confidence %.2f for unrelated captions, want ≤ 0.3", got.Confidence)
	}
}

func TestEstimateSyncEmpty(t *testing.T) {
	if _, ok := EstimateSync(nil, []Span{{0, 1000}}); ok {
		t.Error("no speech: want no estimate")
	}
	if _, ok := EstimateSync([]Segment{{StartMs: 0, EndMs: 1000}}, nil); ok {
		t.Error("no cues: want no estimate")
	}
}

func TestSyncRatios(t *testing.T) {
	rs := SyncRatios()
	if len(rs) != 17 || !slices.Contains(rs, 1) || !slices.IsSorted(rs) {
		t.Errorf("ratios %v: want 1 and 16 distinct rate ratios, sorted", rs)
	}
}

// BenchmarkEstimateSync estimates a two-hour programme (1,600 cues).
func BenchmarkEstimateSync(b *testing.B) {
	cues, speech := programme(3, 1600)
	c := shifted(cues, 1, 4321)
	b.ResetTimer()
	for b.Loop() {
		EstimateSync(speech, c)
	}
}

// TestEstimateSyncRegularPace expects little confidence when the cues
// come at so regular a pace that a shift by one cue fits as well.
func TestEstimateSyncRegularPace(t *testing.T) {
	var cues []Span
	var speech []Segment
	for i := range int64(40) {
		cues = append(cues, Span{i * 3500, i*3500 + 3000})
		speech = append(speech, Segment{StartMs: i*3500 + 10, EndMs: i*3500 + 3020})
	}
	got, ok := EstimateSync(speech, cues)
	if !ok {
		t.Fatal("no estimate")
	}
	if got.Confidence >= SyncConfident {
		t.Errorf("confidence %.2f for a regular pace, want under %.2f", got.Confidence, SyncConfident)
	}
}
