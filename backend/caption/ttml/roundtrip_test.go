package ttml

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

type core struct {
	ID             string
	StartMs, EndMs int64
	Text           string
}

func cores(t *caption.Track) []core {
	out := make([]core, len(t.Cues))
	for i, c := range t.Cues {
		out[i] = core{c.ID, c.StartMs, c.EndMs, c.Text}
	}
	return out
}

// roundTrip checks that parse(Write(parse(src))) keeps every cue's id,
// times and text, and the geometry of the region each cue is in.
func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	trip := golden.RoundTrip(t, Parse, Write, src)
	a, b := cores(trip.First), cores(trip.Second)
	if len(a) != len(b) {
		t.Fatalf("%s: %d cues, %d after a round trip", name, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%s: cue %d: %+v, after a round trip %+v", name, i, a[i], b[i])
		}
	}
	ra, rb := trip.First.RegionsByID(), trip.Second.RegionsByID()
	for i := range trip.First.Cues {
		pa, pb := trip.First.Cues[i].Placement, trip.Second.Cues[i].Placement
		if pa == nil || ra[pa.Region] == nil {
			continue // in no region of the document
		}
		var got *caption.Region
		if pb != nil {
			got = rb[pb.Region]
		}
		if got == nil {
			t.Errorf("%s: cue %d was in region %q, after a round trip in none", name, i, pa.Region)
			continue
		}
		if w, g := geometry(ra[pa.Region]), geometry(got); !w.near(g) {
			t.Errorf("%s: cue %d: region %q %+v, after a round trip %q %+v", name, i, pa.Region, w, pb.Region, g)
		}
	}
	for _, d := range trip.Diags {
		if d.Severity == caption.SeverityError && d.Code != caption.CodeNoCues {
			t.Errorf("%s: our own output gives %s: %s", name, d.Code, d.Message)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range suite().Cases(t) {
		roundTrip(t, c.Path, c.Input)
	}
}

func TestRoundTripIMSC(t *testing.T) {
	t.Parallel()
	for _, f := range corpus.Glob(t, "imsc-tests", ".ttml") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, filepath.Base(f), src)
	}
}

// TestRoundTripTTConv round-trips the TTML files of ttconv's corpus.
func TestRoundTripTTConv(t *testing.T) {
	t.Parallel()
	for _, f := range corpus.Glob(t, "ttconv/ttml", ".ttml") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, filepath.Base(f), src)
	}
}

// regionGeometry is a region's box as an IMSC1 document can hold it (a
// region must lie within the root container): moved inside the frame
// with its size kept, or cut to the frame where it is larger, with its
// display alignment.
type regionGeometry struct {
	x, y, w, h   float64
	displayAlign string
}

func geometry(r *caption.Region) regionGeometry {
	x, y, w, h := r.Box()
	fit := func(o, size float64) (float64, float64) {
		size = min(max(size, 0), 100)
		return min(max(o, 0), 100-size), size
	}
	x, w = fit(x, w)
	y, h = fit(y, h)
	return regionGeometry{x, y, w, h, r.DisplayAlign}
}

// near compares to the 0.01% the writer writes.
func (g regionGeometry) near(o regionGeometry) bool {
	n := func(a, b float64) bool { return math.Abs(a-b) <= 0.005+1e-9 }
	return n(g.x, o.x) && n(g.y, o.y) && n(g.w, o.w) && n(g.h, o.h) && g.displayAlign == o.displayAlign
}

func TestWriteDeterministic(t *testing.T) {
	t.Parallel()
	src, _ := os.ReadFile("testdata/styles.in.ttml")
	tr, _, _ := Parse(bytes.NewReader(src))
	if !bytes.Equal(golden.MustWrite(t, Write, tr), golden.MustWrite(t, Write, tr)) {
		t.Error("two writes of one track differ")
	}
}

func TestWriteForeignIDs(t *testing.T) {
	t.Parallel()
	tr := &caption.Track{Cues: []caption.Cue{
		{ID: "1", StartMs: 0, EndMs: 1000, Text: "a < b & c"},
		{ID: "1", StartMs: 1000, EndMs: 2000, Text: "dup\nline", Voice: "Ann"},
		{ID: "", StartMs: 2000, EndMs: 3000, Text: "  spaced  ", Spans: []caption.Span{{Start: 2, End: 8, Italic: true, Color: "#ff0000"}}},
	}}
	var out bytes.Buffer
	if err := Write(&out, tr); err != nil {
		t.Fatal(err)
	}
	back, _, _ := Parse(&out)
	tests := []core{{"c1", 0, 1000, "a < b & c"}, {"c1-2", 1000, 2000, "dup\nline"}, {"", 2000, 3000, "  spaced  "}}
	got := cores(back)
	if len(got) != len(tests) {
		t.Fatalf("got %d cues, want %d:\n%s", len(got), len(tests), out.String())
	}
	for i, want := range tests {
		if got[i] != want {
			t.Errorf("cue %d = %+v, want %+v", i, got[i], want)
		}
	}
	if back.Cues[1].Voice != "Ann" || len(back.Cues[2].Spans) != 1 || !back.Cues[2].Spans[0].Italic {
		t.Errorf("voice or spans lost: %+v", back.Cues)
	}
}
