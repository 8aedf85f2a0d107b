package ttml

import (
	"bytes"
	"math"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestRegionRoundTrip reads WebVTT regions, writes TTML and reads it
// back: a cue in a region is in a region of the same box (origin =
// viewport anchor - region anchor × size, 6% a line), bottom-aligned as
// WebVTT stacks a region's lines; a cue whose line makes WebVTT ignore
// its region keeps the box of its own settings. Ids the writer uses are
// renamed.
func TestRegionRoundTrip(t *testing.T) {
	t.Parallel()
	tr := readVTT(t, "testdata/vttregions.vtt")
	want := map[string]struct {
		region     string
		x, y, w, h float64
		align      string
	}{
		"roll":  {"fred", 10, 72, 40, 18, "after"},
		"top-2": {"p1", 25, 10, 50, 12, "after"},
		"own":   {"p1-2", 30, 10, 40, 90, "before"},
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, diags, err := Parse(&buf)
	if err != nil || len(diags) != 0 || len(back.Cues) != len(want) {
		t.Fatalf("read back: %v %+v, %d cues\n%s", err, diags, len(back.Cues), buf.String())
	}
	regions := back.RegionsByID()
	near := func(a, b float64) bool { return math.Abs(a-b) <= 0.005+1e-9 }
	for _, c := range back.Cues {
		w, ok := want[c.ID]
		if !ok || c.Placement == nil || regions[c.Placement.Region] == nil {
			t.Fatalf("unexpected cue %+v\n%s", c, buf.String())
		}
		r := regions[c.Placement.Region]
		x, y, rw, rh := r.Box()
		if r.ID != w.region || !near(x, w.x) || !near(y, w.y) || !near(rw, w.w) || !near(rh, w.h) || r.DisplayAlign != w.align {
			t.Errorf("%s: region %q at %v,%v size %v×%v %q; want %q at %v,%v size %v×%v %q",
				c.ID, r.ID, x, y, rw, rh, r.DisplayAlign, w.region, w.x, w.y, w.w, w.h, w.align)
		}
	}
}

// TestUnplacedInRegion checks what Unplaced reports for a cue in a
// region: its position, the region's line count and roll-up, and a
// region past the frame edge; and that a region WebVTT ignores (the cue
// has a line) reports nothing of the region.
func TestUnplacedInRegion(t *testing.T) {
	t.Parallel()
	num := func(v float64) *float64 { return &v }
	lines := 3
	vttRegion := &caption.Region{ID: "r", Width: num(40), Lines: &lines, AnchorX: num(0), AnchorY: num(100),
		ViewportX: num(10), ViewportY: num(90), Scroll: "up"}
	offFrame := &caption.Region{ID: "o", Width: num(40), Height: num(30), AnchorX: num(0), AnchorY: num(0),
		ViewportX: num(70), ViewportY: num(80)}
	wide := &caption.Region{ID: "w", Width: num(120), Height: num(30), AnchorX: num(0), AnchorY: num(0),
		ViewportX: num(-10), ViewportY: num(80)}
	tests := []struct {
		name string
		p    caption.Placement
		r    *caption.Region
		want Loss
	}{
		{"vtt region", caption.Placement{Region: "r"}, vttRegion, Loss{RegionLines: true, Scroll: true}},
		{"position in region", caption.Placement{Region: "r", Position: num(30)}, vttRegion, Loss{Position: true, RegionLines: true, Scroll: true}},
		{"line makes WebVTT ignore the region", caption.Placement{Region: "r", Line: num(10), LineUnit: caption.LineUnitPercent}, vttRegion, Loss{}},
		{"region past the frame", caption.Placement{Region: "o"}, offFrame, Loss{RegionMoved: true}},
		{"region wider than the frame", caption.Placement{Region: "w"}, wide, Loss{RegionOffFrame: true}},
		{"undefined region", caption.Placement{Region: "nope"}, nil, Loss{}},
	}
	for _, tt := range tests {
		if got := Unplaced(&tt.p, tt.r); got != tt.want {
			t.Errorf("%s: Unplaced = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestRegionBoxFitsFrame checks the IMSC1 box written for a region past
// the frame edge: one that fits is moved inside with its size kept, even
// when it lies wholly outside (a WebVTT region anchored by its bottom-left
// corner at the top of the frame); only one larger than the frame is cut.
func TestRegionBoxFitsFrame(t *testing.T) {
	t.Parallel()
	num := func(v float64) *float64 { return &v }
	two := 2
	tests := []struct {
		name       string
		r          caption.Region
		x, y, w, h float64
	}{
		{"inside", caption.Region{Width: num(40), Height: num(20), ViewportX: num(5), ViewportY: num(5)}, 5, 5, 40, 20},
		{"above the frame", caption.Region{Width: num(50), Lines: &two, AnchorX: num(0), AnchorY: num(100), ViewportX: num(0), ViewportY: num(0)}, 0, 0, 50, 12},
		{"past the bottom right", caption.Region{Width: num(40), Height: num(30), ViewportX: num(70), ViewportY: num(80)}, 60, 70, 40, 30},
		{"left of the frame", caption.Region{Width: num(40), Height: num(30), ViewportX: num(-15), ViewportY: num(10)}, 0, 10, 40, 30},
		{"wider than the frame", caption.Region{Width: num(120), Height: num(30), ViewportX: num(-10), ViewportY: num(80)}, 0, 70, 100, 30},
	}
	for _, tt := range tests {
		b := regionBox(&tt.r)
		if b.x != tt.x || b.y != tt.y || b.w != tt.w || b.h != tt.h {
			t.Errorf("%s: box at %v,%v size %v×%v; want at %v,%v size %v×%v", tt.name, b.x, b.y, b.w, b.h, tt.x, tt.y, tt.w, tt.h)
		}
	}
}
