package analysis

import (
	"slices"
	"testing"
)

func TestShotDetector(t *testing.T) {
	tests := []struct {
		name   string
		scores map[int64]float64 // frames not listed score 0.5
		opts   ShotOptions
		want   []int64
	}{
		{"hard cuts", map[int64]float64{50: 30, 120: 25, 300: 12}, ShotOptions{}, []int64{50, 120, 300}},
		{"under the threshold", map[int64]float64{50: 9.9, 80: 10}, ShotOptions{}, []int64{80}},
		{"first frame is no cut", map[int64]float64{0: 50, 40: 30}, ShotOptions{}, []int64{40}},
		{"flash", map[int64]float64{50: 30, 100: 40, 102: 40}, ShotOptions{}, []int64{50}},
		{"strobe", map[int64]float64{100: 30, 102: 30, 104: 30, 106: 30, 108: 30, 200: 20}, ShotOptions{}, []int64{200}},
		{"slow fade", fade(100, 175), ShotOptions{}, nil},
		{"minimum shot length apart", map[int64]float64{50: 30, 56: 30}, ShotOptions{}, []int64{50, 56}},
		{"one frame short", map[int64]float64{50: 30, 55: 30}, ShotOptions{}, nil},
		{"own settings", map[int64]float64{50: 6, 53: 30}, ShotOptions{Threshold: 5, MinShotFrames: 3}, []int64{50, 53}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewShotDetector(tt.opts)
			for f := int64(0); f < 400; f++ {
				s, ok := tt.scores[f]
				if !ok {
					s = 0.5
				}
				d.Add(f, f*40, s)
			}
			got := d.Changes()
			if got == nil {
				t.Fatal("nil changes: the JSON form wants []")
			}
			var frames []int64
			for _, c := range got {
				frames = append(frames, c.Frame)
				if c.TimeMs != c.Frame*40 || c.Score != tt.scores[c.Frame] {
					t.Errorf("change %+v", c)
				}
			}
			if !slices.Equal(frames, tt.want) {
				t.Errorf("cuts %v, want %v", frames, tt.want)
			}
		})
	}
}

// fade scores a fade from frame a to b: a steady change of a few percent
// a frame, as scdet sees one.
func fade(a, b int64) map[int64]float64 {
	m := map[int64]float64{}
	for f := a; f < b; f++ {
		m[f] = 1.5
	}
	return m
}
