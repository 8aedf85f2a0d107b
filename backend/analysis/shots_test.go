package analysis

import (
	"math"
	"slices"
	"testing"
)

func TestShotDetector(t *testing.T) {
	tests := []struct {
		name string
		mafd map[int64]float64 // frames not listed differ by 0.5 from the one before
		opts ShotOptions
		want []int64
	}{
		{"hard cuts", map[int64]float64{50: 30, 120: 25, 300: 12.5}, ShotOptions{}, []int64{50, 120, 300}},
		{"under the threshold", map[int64]float64{50: 10.4, 80: 10.5}, ShotOptions{}, []int64{80}},
		{"not at the start", map[int64]float64{0: 50, 3: 50, 40: 30}, ShotOptions{}, []int64{40}},
		{"on the last frame", map[int64]float64{50: 30, 399: 30}, ShotOptions{}, []int64{50, 399}},
		{"one-frame flash", map[int64]float64{50: 30, 100: 40, 101: 40}, ShotOptions{}, []int64{50}},
		{"longer flash", map[int64]float64{50: 30, 100: 40, 101: 0, 102: 0, 103: 40}, ShotOptions{}, []int64{50}},
		{"strobe", span(100, 110, 30), ShotOptions{}, nil},
		{"slow fade", span(100, 175, 1.5), ShotOptions{}, nil},
		{"into fast motion", merge(map[int64]float64{50: 30}, span(51, 100, 8)), ShotOptions{}, []int64{50}},
		{"minimum shot length apart", map[int64]float64{50: 30, 56: 30}, ShotOptions{}, []int64{50, 56}},
		{"one frame short", map[int64]float64{50: 30, 55: 30}, ShotOptions{}, nil},
		{"own settings", map[int64]float64{50: 6.5, 53: 30}, ShotOptions{Threshold: 5, MinShotFrames: 3}, []int64{50, 53}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewShotDetector(tt.opts)
			scores := map[int64]float64{}
			prev := 0.0
			for f := int64(0); f < 400; f++ {
				m, ok := tt.mafd[f]
				if !ok {
					m = 0.5
				}
				if f == 0 {
					m = 0
				}
				// scdet's score: the change of the difference, capped by it.
				s := math.Min(m, math.Abs(m-prev))
				prev = m
				scores[f] = s
				d.Add(FrameScore{Frame: f, TimeMs: f * 40, Score: s, MAFD: m})
			}
			got := d.Changes()
			if got == nil {
				t.Fatal("nil changes: the JSON form wants []")
			}
			var frames []int64
			for _, c := range got {
				frames = append(frames, c.Frame)
				if c.TimeMs != c.Frame*40 || c.Score != scores[c.Frame] {
					t.Errorf("change %+v", c)
				}
			}
			if !slices.Equal(frames, tt.want) {
				t.Errorf("cuts %v, want %v", frames, tt.want)
			}
		})
	}
}

// span differs by mafd on frames a to b (excluded), as a fade, a strobe
// or fast motion does.
func span(a, b int64, mafd float64) map[int64]float64 {
	m := map[int64]float64{}
	for f := a; f < b; f++ {
		m[f] = mafd
	}
	return m
}

func merge(a, b map[int64]float64) map[int64]float64 {
	for k, v := range b {
		a[k] = v
	}
	return a
}
