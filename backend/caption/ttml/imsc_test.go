package ttml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// imscProblem checks the parts of the IMSC1 text profile the writer's
// layout touches, and returns the first broken one or "": the document
// declares the profile; every xml:id is a unique XML name; every region
// has tts:origin and tts:extent in percent and lies within the root
// container; tts:displayAlign is before, center or after; every
// paragraph names a region the document defines.
func imscProblem(doc []byte) string {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	ids := map[string]bool{}
	regions := map[string]bool{}
	var refs []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "not well-formed: " + err.Error()
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(space, local string) (string, bool) {
			for _, a := range el.Attr {
				if a.Name.Space == space && a.Name.Local == local {
					return a.Value, true
				}
			}
			return "", false
		}
		if id, ok := attr("http://www.w3.org/XML/1998/namespace", "id"); ok {
			if !isNCName(id) || ids[id] {
				return fmt.Sprintf("xml:id %q is not a unique XML name", id)
			}
			ids[id] = true
		}
		switch el.Name.Local {
		case "tt":
			if p, _ := attr(nsTTMLParam, "profile"); p != profileIMSC1 {
				return "ttp:profile is " + strconv.Quote(p)
			}
		case "region":
			id, _ := attr("http://www.w3.org/XML/1998/namespace", "id")
			regions[id] = true
			origin, ok1 := attr(nsTTMLStyle, "origin")
			extent, ok2 := attr(nsTTMLStyle, "extent")
			x, y, okO := percents(origin)
			w, h, okE := percents(extent)
			if !ok1 || !ok2 || !okO || !okE {
				return fmt.Sprintf("region %q: origin %q, extent %q are not percentages", id, origin, extent)
			}
			const eps = 1e-9
			if x < 0 || y < 0 || w < 0 || h < 0 || x+w > 100+eps || y+h > 100+eps {
				return fmt.Sprintf("region %q (origin %s, extent %s) is not within the root container", id, origin, extent)
			}
			if da, ok := attr(nsTTMLStyle, "displayAlign"); ok && da != "before" && da != "center" && da != "after" {
				return fmt.Sprintf("region %q: displayAlign %q", id, da)
			}
		case "p":
			r, _ := attr("", "region")
			refs = append(refs, r)
		}
	}
	for _, r := range refs {
		if !regions[r] {
			return fmt.Sprintf("a paragraph names region %q, which is not defined", r)
		}
	}
	return ""
}

func percents(v string) (float64, float64, bool) {
	f := strings.Fields(v)
	if len(f) != 2 || !strings.HasSuffix(f[0], "%") || !strings.HasSuffix(f[1], "%") {
		return 0, 0, false
	}
	a, e1 := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
	b, e2 := strconv.ParseFloat(strings.TrimSuffix(f[1], "%"), 64)
	return a, b, e1 == nil && e2 == nil
}

// TestWriteIMSC1 writes every golden input, the WebVTT fixtures, the IMSC
// and ttconv corpus files and a few hostile tracks, and checks each
// document against the IMSC1 layout constraints of imscProblem.
func TestWriteIMSC1(t *testing.T) {
	t.Parallel()
	tracks := map[string]*caption.Track{}
	for _, c := range suite().Cases(t) {
		tr, _, _ := Parse(bytes.NewReader(c.Input))
		tracks[c.Path] = tr
	}
	for _, f := range []string{"testdata/placement.vtt", "testdata/vttregions.vtt"} {
		tracks[f] = readVTT(t, f)
	}
	for _, f := range append(corpus.Glob(t, "imsc-tests", ".ttml"), corpus.Glob(t, "ttconv/ttml", ".ttml")...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, _, _ := Parse(bytes.NewReader(src))
		tracks[filepath.Base(f)] = tr
	}
	num := func(v float64) *float64 { return &v }
	lines := 40
	tracks["hostile regions"] = &caption.Track{
		Regions: []caption.Region{
			{ID: "1 bad id", Width: num(0.005), Height: num(99.995), ViewportX: num(0.005), ViewportY: num(0.001)},
			{ID: "p1", Width: num(150), Lines: &lines, AnchorX: num(-20), AnchorY: num(300), ViewportX: num(50), ViewportY: num(50), DisplayAlign: "justify\""},
			{ID: "top", Width: num(-5), Height: num(1e300), ViewportX: num(99.999)},
			// Exact binary halves: each rounds up, and 0.13% + 99.88% would
			// run past the frame.
			{ID: "halves", Width: num(99.875), Height: num(10), ViewportX: num(0.125), ViewportY: num(0)},
		},
		Cues: []caption.Cue{
			{ID: "p1", StartMs: 0, EndMs: 1000, Text: "a", Placement: &caption.Placement{Region: "1 bad id"}},
			{ID: "p1-2", StartMs: 1000, EndMs: 2000, Text: "b", Placement: &caption.Placement{Region: "p1"}},
			{ID: "c1_bad_id", StartMs: 2000, EndMs: 3000, Text: "c", Placement: &caption.Placement{Region: "top", Position: num(10)}},
			{StartMs: 2500, EndMs: 3000, Text: "h", Placement: &caption.Placement{Region: "halves"}},
			{StartMs: 3000, EndMs: 4000, Text: "d", Placement: &caption.Placement{Position: num(33.333), Size: num(66.667), Region: "nope"}},
		},
	}
	for name, tr := range tracks {
		var out bytes.Buffer
		if err := Write(&out, tr); err != nil {
			t.Fatal(err)
		}
		if why := imscProblem(out.Bytes()); why != "" {
			t.Errorf("%s: %s\n%s", name, why, out.String())
		}
	}
}
