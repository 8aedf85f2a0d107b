package caption

import "testing"

func TestRegionBox(t *testing.T) {
	t.Parallel()
	pct := func(v float64) *float64 { return &v }
	lines := func(n int) *int { return &n }
	tests := []struct {
		name       string
		r          Region
		x, y, w, h float64
	}{
		{"nothing set: full width, three lines at the top left", Region{}, 0, 0, 100, 18},
		{"height in percent", Region{Width: pct(40), Height: pct(20), ViewportX: pct(5), ViewportY: pct(5)}, 5, 5, 40, 20},
		{"height in lines", Region{Width: pct(40), Lines: lines(2)}, 0, 0, 40, 12},
		{"a height wins over lines", Region{Height: pct(30), Lines: lines(2)}, 0, 0, 100, 30},
		{"anchored at its bottom left", Region{Width: pct(40), Lines: lines(3), AnchorY: pct(100), ViewportX: pct(10), ViewportY: pct(90)}, 10, 72, 40, 18},
		{"anchored at its middle", Region{Width: pct(50), Height: pct(20), AnchorX: pct(50), AnchorY: pct(50), ViewportX: pct(50), ViewportY: pct(50)}, 25, 40, 50, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x, y, w, h := tt.r.Box()
			if x != tt.x || y != tt.y || w != tt.w || h != tt.h {
				t.Errorf("Box() = %v, %v, %v, %v; want %v, %v, %v, %v", x, y, w, h, tt.x, tt.y, tt.w, tt.h)
			}
		})
	}
}
