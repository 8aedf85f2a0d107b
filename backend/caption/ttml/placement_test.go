package ttml

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/vtt"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWriteLayout writes the cues of WebVTT files whose cue settings
// (placement.vtt) and regions (vttregions.vtt) become IMSC1 regions, and
// compares each document with its .out.ttml.
func TestWriteLayout(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"placement", "vttregions"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr := readVTT(t, "testdata/"+name+".vtt")
			var out bytes.Buffer
			if err := Write(&out, tr); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, "testdata/"+name+".out.ttml", out.Bytes())
		})
	}
}

// TestPlacementRoundTrip reads WebVTT cue settings, writes TTML and reads
// it back: each cue's region is the box a WebVTT renderer draws for its
// settings, to the 0.01% written. The box is given as the settings it
// reads back as: the top (line-align start), middle (center) or bottom
// (end) line, and the left edge and width.
func TestPlacementRoundTrip(t *testing.T) {
	t.Parallel()
	tr := readVTT(t, "testdata/placement.vtt")
	want := map[string]struct {
		line      float64
		lineAlign string
		left, w   float64
		area      string
	}{
		"top-left": {10, "start", 10, 40, caption.AreaTop},
		"low":      {80, "end", 20, 50, caption.AreaBottom},
		// The id of the region "middle" is taken: xml:ids are one space.
		"middle-2":  {50, "center", 60, 30, caption.AreaMiddle},
		"same-box":  {10, "start", 10, 40, caption.AreaTop},
		"area-only": {90, "end", 25, 75, caption.AreaBottom},
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, diags, err := Parse(&buf)
	if err != nil || len(diags) != 0 || len(back.Cues) != len(want) {
		t.Fatalf("read back: %v %+v, %d cues\n%s", err, diags, len(back.Cues), buf.String())
	}
	regions := map[string]caption.Region{}
	for _, r := range back.Regions {
		regions[r.ID] = r
	}
	for i, c := range back.Cues {
		w, ok := want[c.ID]
		if !ok || c.Placement == nil {
			t.Fatalf("cue %d: unexpected %+v", i, c)
		}
		r := regions[c.Placement.Region]
		if r.ViewportX == nil || r.ViewportY == nil || r.Width == nil || r.Height == nil {
			t.Fatalf("%s: region %q has no geometry: %+v", c.ID, c.Placement.Region, r)
		}
		var line float64
		var lineAlign string
		switch r.DisplayAlign {
		case "before":
			line, lineAlign = *r.ViewportY, "start"
		case "center":
			line, lineAlign = *r.ViewportY+*r.Height/2, "center"
		case "after":
			line, lineAlign = *r.ViewportY+*r.Height, "end"
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 0.005 }
		if !near(line, w.line) || lineAlign != w.lineAlign || !near(*r.ViewportX, w.left) || !near(*r.Width, w.w) {
			t.Errorf("%s: read back line %v,%s, box from %v wide %v; want line %v,%s, from %v wide %v",
				c.ID, line, lineAlign, *r.ViewportX, *r.Width, w.line, w.lineAlign, w.left, w.w)
		}
		if c.Placement.Area != w.area {
			t.Errorf("%s: area %q, want %q", c.ID, c.Placement.Area, w.area)
		}
		if src := tr.Cues[i].Placement; c.Placement.Align != src.Align && src.Align != "" {
			t.Errorf("%s: align %q, want %q", c.ID, c.Placement.Align, src.Align)
		}
	}
}

func readVTT(t *testing.T, path string) *caption.Track {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, diags, err := vtt.Parse(bytes.NewReader(src))
	if err != nil || len(diags) != 0 {
		t.Fatalf("%s: %v %+v", path, err, diags)
	}
	return tr
}
