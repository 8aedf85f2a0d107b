package format

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestUnwrittenMatchesWriters writes a cue with one span per feature in
// every output format, reads it back, and checks that exactly the
// features Unwritten names are gone.
func TestUnwrittenMatchesWriters(t *testing.T) {
	t.Parallel()
	features := []struct {
		name string
		span caption.Span
		kept func(caption.Span) bool
	}{
		{FeatureColour, caption.Span{Color: "#ff0000"}, func(s caption.Span) bool { return s.Color != "" }},
		{FeatureBackground, caption.Span{Background: "#000000"}, func(s caption.Span) bool { return s.Background != "" }},
		{FeatureClass, caption.Span{Class: "loud"}, func(s caption.Span) bool { return s.Class != "" }},
		{FeatureLanguage, caption.Span{Lang: "fr"}, func(s caption.Span) bool { return s.Lang != "" }},
		{FeatureSpeaker, caption.Span{Voice: "Ann"}, func(s caption.Span) bool { return s.Voice != "" }},
		{FeatureBold, caption.Span{Bold: true}, func(s caption.Span) bool { return s.Bold }},
	}
	for _, f := range Writable() {
		for _, ft := range features {
			t.Run(f+"/"+ft.name, func(t *testing.T) {
				t.Parallel()
				sp := ft.span
				sp.Start, sp.End = 0, 5
				in := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{
					{ID: "1", StartMs: 1000, EndMs: 3000, Text: "Hello there", Spans: []caption.Span{sp}},
				}}
				out, file := writeRead(t, f, in)
				if len(out.Cues) != 1 {
					t.Fatalf("read back %d cues, want 1\n%s", len(out.Cues), file)
				}
				kept := slices.ContainsFunc(out.Cues[0].Spans, ft.kept)
				lost := slices.Contains(Unwritten(f, &sp, nil), ft.name)
				if kept == lost {
					t.Errorf("%s: the writer keeps it: %v; Unwritten says it is lost: %v\n%s", ft.name, kept, lost, file)
				}
			})
		}
	}
}

// TestCarriesLanguageMatchesWriters writes a track with a language in
// every output format and reads it back.
func TestCarriesLanguageMatchesWriters(t *testing.T) {
	t.Parallel()
	for _, f := range Writable() {
		in := &caption.Track{Version: caption.Version, Language: "pt-BR", Cues: []caption.Cue{{ID: "1", StartMs: 1000, EndMs: 3000, Text: "Olá"}}}
		var buf bytes.Buffer
		if err := Write(f, &buf, in); err != nil {
			t.Fatal(err)
		}
		out, _, err := Parse(f, &buf)
		if err != nil {
			t.Fatalf("%s: read back: %v", f, err)
		}
		if kept := out.Language == "pt-BR"; kept != CarriesLanguage(f) {
			t.Errorf("%s: the language read back is %q; CarriesLanguage says %v", f, out.Language, CarriesLanguage(f))
		}
	}
}

// TestUnwrittenRubyMatchesWriters reads a WebVTT cue with a ruby reading
// and writes it in every output format: the reading is in the written
// file exactly when UnwrittenCue does not name it.
func TestUnwrittenRubyMatchesWriters(t *testing.T) {
	t.Parallel()
	in, _, err := Parse(VTT, strings.NewReader("WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<ruby>東京<rt>とうきょう</rt></ruby>に行きます\n"))
	if err != nil || len(in.Cues) != 1 || !HasRuby(&in.Cues[0]) {
		t.Fatalf("read: %v, %+v", err, in)
	}
	for _, f := range Writable() {
		var buf bytes.Buffer
		if err := Write(f, &buf, in); err != nil {
			t.Fatal(err)
		}
		written := strings.Contains(buf.String(), "とうきょう")
		lost := slices.Contains(UnwrittenCue(f, &in.Cues[0], nil, nil, nil), FeatureRuby)
		if written == lost {
			t.Errorf("%s: the reading is written: %v; UnwrittenCue says it is lost: %v\n%s", f, written, lost, buf.String())
		}
	}
}

// TestDeliversMatchesWriters writes, in every output format, a cue that
// some player might not show between two that every player shows, reads
// the file back, and checks that the cue comes back exactly when Delivers
// says so.
func TestDeliversMatchesWriters(t *testing.T) {
	t.Parallel()
	open := map[string]json.RawMessage{TTML: json.RawMessage(`{"openEnd":true}`)}
	cues := []struct {
		name string
		cue  caption.Cue
	}{
		{"shown", caption.Cue{StartMs: 4000, EndMs: 5000, Text: "Shown"}},
		{"zero length", caption.Cue{StartMs: 4000, EndMs: 4000, Text: "Zero"}},
		{"ends before it starts", caption.Cue{StartMs: 4500, EndMs: 4000, Text: "Backwards"}},
		{"open end read as zero length", caption.Cue{StartMs: 4000, EndMs: 4000, Text: "Open", Ext: open}},
		{"no text", caption.Cue{StartMs: 4000, EndMs: 5000}},
		{"spaces only", caption.Cue{StartMs: 4000, EndMs: 5000, Text: " \u00a0\n "}},
		{"only what XML cannot carry", caption.Cue{StartMs: 4000, EndMs: 5000, Text: "\uFFFE\u0001"}},
		{"zero-width space", caption.Cue{StartMs: 4000, EndMs: 5000, Text: "\u200b"}},
	}
	for _, f := range Writable() {
		for _, tc := range cues {
			t.Run(f+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				in := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{
					{StartMs: 1000, EndMs: 3000, Text: "Before"}, tc.cue, {StartMs: 6000, EndMs: 8000, Text: "After"},
				}}
				var buf bytes.Buffer
				if err := Write(f, &buf, in); err != nil {
					t.Fatal(err)
				}
				out, _, err := Parse(f, &buf)
				if err != nil {
					t.Fatalf("read back: %v", err)
				}
				back := len(out.Cues) == 3
				if len(out.Cues) < 2 || len(out.Cues) > 3 {
					t.Fatalf("read back %d cues, want 2 or 3\n%s", len(out.Cues), buf.String())
				}
				if d := Delivers(f, &in.Cues[1]); back != d {
					t.Errorf("the cue is read back: %v; Delivers says: %v\n%s", back, d, buf.String())
				}
			})
		}
	}
}

// TestUnwrittenPlacementMatchesWriters writes a cue with one placement
// feature in every output format, reads it back, and checks that the
// feature is gone exactly when UnwrittenCue names it. TTML carries a
// placement as a region, so there the feature is looked for in the box
// of the cue's region (percent of the frame).
// TestRewritesTextMatchesWriters writes arrows and text in angle brackets
// in every format and reads them back: the text comes back different
// exactly when RewritesText says so.
func TestRewritesTextMatchesWriters(t *testing.T) {
	t.Parallel()
	texts := []string{
		"Text with --> arrow inside",
		"--> at the start\nand a second line",
		"00:00:05,000 --> 00:00:06,000",
		"12\n00:00:05.000 --> 00:00:06.000 align:start",
		"<LAUGHING & WHOOPS!>",
		"<i>not a span</i>",
		"a < b & c > d",
		"3 < 4 and 5 > 2",
		"I <3 you",
	}
	for _, f := range Writable() {
		for _, text := range texts {
			t.Run(f+"/"+text, func(t *testing.T) {
				t.Parallel()
				in := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{{StartMs: 1000, EndMs: 3000, Text: text}}}
				var buf bytes.Buffer
				if err := Write(f, &buf, in); err != nil {
					t.Fatal(err)
				}
				out, _, err := Parse(f, &buf)
				if err != nil {
					t.Fatalf("read back: %v", err)
				}
				if len(out.Cues) != 1 {
					t.Fatalf("read back %d cues, want 1\n%s", len(out.Cues), buf.String())
				}
				changed := out.Cues[0].Text != text
				if r := RewritesText(f, &in.Cues[0]); changed != r {
					t.Errorf("read back as %q: changed %v; RewritesText says %v", out.Cues[0].Text, changed, r)
				}
			})
		}
	}
}

func TestUnwrittenPlacementMatchesWriters(t *testing.T) {
	t.Parallel()
	num := func(v float64) *float64 { return &v }
	is := func(p *float64, v float64) bool { return p != nil && *p == v }
	features := []struct {
		name      string
		placement caption.Placement
		lostAs    []string // any of these names the loss
		kept      func(p *caption.Placement, r caption.Region) bool
	}{
		{"line in percent", caption.Placement{Line: num(10), LineUnit: caption.LineUnitPercent}, []string{FeatureLine},
			func(p *caption.Placement, r caption.Region) bool {
				return is(p.Line, 10) && p.LineUnit == caption.LineUnitPercent || is(r.ViewportY, 10) && r.DisplayAlign == "before"
			}},
		{"line number", caption.Placement{Line: num(2), LineUnit: caption.LineUnitLines}, []string{FeatureLine, FeatureLineNumber},
			func(p *caption.Placement, _ caption.Region) bool {
				return is(p.Line, 2) && p.LineUnit == caption.LineUnitLines
			}},
		{"position", caption.Placement{Position: num(30)}, []string{FeaturePosition},
			func(p *caption.Placement, r caption.Region) bool {
				return is(p.Position, 30) || r.ViewportX != nil && r.Width != nil && *r.ViewportX+*r.Width/2 == 30
			}},
		{"size", caption.Placement{Size: num(40)}, []string{FeatureSize},
			func(p *caption.Placement, r caption.Region) bool { return is(p.Size, 40) || is(r.Width, 40) }},
		{"vertical", caption.Placement{Vertical: "rl"}, []string{FeatureVertical},
			func(p *caption.Placement, _ caption.Region) bool { return p.Vertical == "rl" }},
		{"box past the frame edge", caption.Placement{Position: num(20), Size: num(80)}, []string{FeatureOffFrame, FeatureSize},
			func(p *caption.Placement, r caption.Region) bool {
				return is(p.Position, 20) && is(p.Size, 80) || r.ViewportX != nil && *r.ViewportX < 0
			}},
	}
	for _, f := range Writable() {
		for _, ft := range features {
			t.Run(f+"/"+ft.name, func(t *testing.T) {
				t.Parallel()
				pl := ft.placement
				in := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{
					{ID: "c1", StartMs: 1000, EndMs: 3000, Text: "Hello there", Placement: &pl},
				}}
				out, file := writeRead(t, f, in)
				if len(out.Cues) != 1 {
					t.Fatalf("read back %d cues, want 1\n%s", len(out.Cues), file)
				}
				back := out.Cues[0].Placement
				if back == nil {
					back = &caption.Placement{}
				}
				var region caption.Region
				for _, r := range out.Regions {
					if r.ID == back.Region {
						region = r
					}
				}
				kept := ft.kept(back, region)
				unwritten := UnwrittenCue(f, &in.Cues[0], nil, nil, nil)
				lost := slices.ContainsFunc(ft.lostAs, func(n string) bool { return slices.Contains(unwritten, n) })
				if kept == lost {
					t.Errorf("%s: the writer keeps it: %v; UnwrittenCue says it is lost: %v (%v)\n%s", ft.name, kept, lost, unwritten, file)
				}
			})
		}
	}
}

// TestUnwrittenRegionMatchesWriters writes a cue in a region with one
// region feature in every output format, reads it back, and checks that
// the feature is gone exactly when UnwrittenCue names it.
func TestUnwrittenRegionMatchesWriters(t *testing.T) {
	t.Parallel()
	num := func(v float64) *float64 { return &v }
	two := 2
	// A TTML region (height in percent) and a WebVTT one (in lines).
	ttmlRegion := caption.Region{ID: "r", Width: num(40), Height: num(20), AnchorX: num(0), AnchorY: num(0), ViewportX: num(5), ViewportY: num(5)}
	vttRegion := caption.Region{ID: "r", Width: num(40), Lines: &two, AnchorX: num(0), AnchorY: num(100), ViewportX: num(10), ViewportY: num(90)}
	with := func(r caption.Region, edit func(*caption.Region)) caption.Region {
		edit(&r)
		return r
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 0.005+1e-9 }
	sameBox := func(a, b *caption.Region) bool {
		ax, ay, aw, ah := a.Box()
		bx, by, bw, bh := b.Box()
		return near(ax, bx) && near(ay, by) && near(aw, bw) && near(ah, bh)
	}
	features := []struct {
		name      string
		region    caption.Region
		placement caption.Placement
		lostAs    []string // any of these names the loss
		kept      func(src *caption.Region, p *caption.Placement, r *caption.Region) bool
	}{
		{"region box", ttmlRegion, caption.Placement{}, []string{FeatureRegion, FeatureRegionHeight},
			func(src *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && sameBox(src, r)
			}},
		{"line count", vttRegion, caption.Placement{}, []string{FeatureRegion, FeatureRegionLines},
			func(_ *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && r.Lines != nil && *r.Lines == 2
			}},
		{"roll-up", with(vttRegion, func(r *caption.Region) { r.Scroll = "up" }), caption.Placement{}, []string{FeatureRegion, FeatureScroll},
			func(_ *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && r.Scroll == "up"
			}},
		{"display alignment", with(ttmlRegion, func(r *caption.Region) { r.DisplayAlign = "center" }), caption.Placement{},
			[]string{FeatureRegion, FeatureRegionAlign},
			func(_ *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && r.DisplayAlign == "center"
			}},
		{"position in a region", vttRegion, caption.Placement{Position: num(30)}, []string{FeaturePosition},
			func(_ *caption.Region, p *caption.Placement, r *caption.Region) bool {
				return r != nil && p.Position != nil && *p.Position == 30
			}},
		{"region past the frame edge", with(ttmlRegion, func(r *caption.Region) { r.ViewportX, r.ViewportY = num(70), num(85) }),
			caption.Placement{}, []string{FeatureRegion, FeatureRegionHeight, FeatureRegionMoved},
			func(src *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && sameBox(src, r)
			}},
		{"region above the frame, its size kept", with(vttRegion, func(r *caption.Region) { r.ViewportX, r.ViewportY = num(0), num(0) }),
			caption.Placement{}, []string{FeatureRegion, FeatureRegionHeight, FeatureRegionMoved, FeatureRegionOffFrame},
			func(src *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && sameBox(src, r)
			}},
		{"region larger than the frame", with(ttmlRegion, func(r *caption.Region) { r.Width, r.ViewportX = num(120), num(-10) }),
			caption.Placement{}, []string{FeatureRegion, FeatureRegionHeight, FeatureRegionOffFrame},
			func(src *caption.Region, _ *caption.Placement, r *caption.Region) bool {
				return r != nil && sameBox(src, r)
			}},
	}
	for _, f := range Writable() {
		for _, ft := range features {
			t.Run(f+"/"+ft.name, func(t *testing.T) {
				t.Parallel()
				pl := ft.placement
				pl.Region = ft.region.ID
				in := &caption.Track{Version: caption.Version, Language: "en", Regions: []caption.Region{ft.region}, Cues: []caption.Cue{
					{ID: "c1", StartMs: 1000, EndMs: 3000, Text: "Hello there", Placement: &pl},
				}}
				out, file := writeRead(t, f, in)
				if len(out.Cues) != 1 {
					t.Fatalf("read back %d cues, want 1\n%s", len(out.Cues), file)
				}
				back := out.Cues[0].Placement
				if back == nil {
					back = &caption.Placement{}
				}
				kept := ft.kept(&in.Regions[0], back, out.RegionsByID()[back.Region])
				unwritten := UnwrittenCue(f, &in.Cues[0], &in.Regions[0], nil, nil)
				lost := slices.ContainsFunc(ft.lostAs, func(n string) bool { return slices.Contains(unwritten, n) })
				if kept == lost {
					t.Errorf("%s: the writer keeps it: %v; UnwrittenCue says it is lost: %v (%v)\n%s", ft.name, kept, lost, unwritten, file)
				}
			})
		}
	}
}

// TestLabelSpanWritesNothing: the span that marks a speaker label the
// engine wrote ([caption.Span.Label]) styles nothing, so a plain-text
// delivery keeps it for its rule check and every writer but the IR's
// writes the cue as if it had no span.
func TestLabelSpanWritesNothing(t *testing.T) {
	t.Parallel()
	for _, f := range slices.DeleteFunc(Writable(), func(f string) bool { return f == JSON }) {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			write := func(spans []caption.Span) string {
				tr := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{
					{StartMs: 1000, EndMs: 3000, Text: "Bob: Out.", Spans: spans},
				}}
				var buf bytes.Buffer
				if err := Write(f, &buf, tr); err != nil {
					t.Fatal(err)
				}
				return buf.String()
			}
			if with, without := write([]caption.Span{{Start: 0, End: 4, Label: true}}), write(nil); with != without {
				t.Errorf("with a label span:\n%s\nwithout:\n%s", with, without)
			}
		})
	}
}

// TestUnwrittenCueFeaturesMatchesWriters writes a cue with one cue-level
// feature (a whole-cue speaker, a style reference) in every output
// format, reads it back, and checks that the feature is gone exactly when
// UnwrittenCue names it.
func TestUnwrittenCueFeaturesMatchesWriters(t *testing.T) {
	t.Parallel()
	styles := []caption.Style{{ID: "s1", Italic: true, Color: "#ffff00", FontFamily: "Arial"}}
	styleOf := func(out *caption.Track) *caption.Style {
		for i := range out.Styles {
			if out.Styles[i].ID == out.Cues[0].Style {
				return &out.Styles[i]
			}
		}
		return &caption.Style{}
	}
	// italic reports whether the text reads back italic, from its style or
	// from a span over all of it.
	italic := func(out *caption.Track) bool {
		c := &out.Cues[0]
		return styleOf(out).Italic || len(c.Spans) > 0 && c.Spans[0].Italic && c.Spans[0].Start == 0 && c.Spans[0].End >= len(c.Text)
	}
	allItalic := []caption.Span{{Start: 0, End: 12, Italic: true}}
	features := []struct {
		name string
		cue  caption.Cue
		kept func(out *caption.Track) bool
	}{
		{FeatureCueSpeaker, caption.Cue{Voice: "Bob"}, func(out *caption.Track) bool { return out.Cues[0].Voice == "Bob" }},
		{FeatureItalic, caption.Cue{Style: "s1"}, italic},
		{FeatureItalic, caption.Cue{Style: "s1", Spans: allItalic}, italic},
		{FeatureFont, caption.Cue{Style: "s1"}, func(out *caption.Track) bool { return styleOf(out).FontFamily == "Arial" }},
	}
	for _, f := range Writable() {
		for _, ft := range features {
			t.Run(f+"/"+ft.name, func(t *testing.T) {
				t.Parallel()
				c := ft.cue
				c.ID, c.StartMs, c.EndMs, c.Text = "c1", 1000, 3000, "Hello there."
				in := &caption.Track{Version: caption.Version, Language: "en", Styles: styles, Cues: []caption.Cue{c}}
				out, file := writeRead(t, f, in)
				if len(out.Cues) != 1 {
					t.Fatalf("read back %d cues, want 1\n%s", len(out.Cues), file)
				}
				kept := ft.kept(out)
				unwritten := UnwrittenCue(f, &in.Cues[0], nil, &styles[0], nil)
				if lost := slices.Contains(unwritten, ft.name); kept == lost {
					t.Errorf("%s: the writer keeps it: %v; UnwrittenCue says it is lost: %v (%v)\n%s", ft.name, kept, lost, unwritten, file)
				}
			})
		}
	}
}

// writeRead writes in in format f and reads the file back, failing t on
// an error of either; it returns the track read and the file's text.
func writeRead(t *testing.T, f string, in *caption.Track) (*caption.Track, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(f, &buf, in); err != nil {
		t.Fatal(err)
	}
	file := buf.String()
	out, _, err := Parse(f, &buf)
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, file)
	}
	return out, file
}
