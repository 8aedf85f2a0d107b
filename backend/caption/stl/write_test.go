package stl

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// The writer's golden inputs are small IR tracks, testdata/write/<case>.in.json:
//   - styles: colour, italics and underline at word boundaries and
//     inside words, after one space and after two, line breaks, top,
//     middle, left and right placement.
//   - characters: letters with marks, ISO 6937 symbols, characters table
//     00 lacks (substitutes and the question mark), spaces of other
//     widths, invisible characters, empty lines and spaces at line ends.
//   - long: a text longer than a text field, in extension blocks.
//   - fps30: a 29.97 fps track (STL30.01), an hour in, a cue shorter than
//     a frame.
//
// TestWriteGolden writes each as <case>.want.stl and reads the file back
// as <case>.back.json, and checks the read-back against what Delivered
// says and the styles of the input.
func TestWriteGolden(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob("testdata/write/*.in.json")
	if len(inputs) == 0 {
		t.Fatal("no inputs")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(in, ".in.json")
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := caption.ParseJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Write(&out, tr); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, name+".want.stl", out.Bytes())
			back, diags := golden.MustParse(t, Parse, out.Bytes())
			checkInvariants(t, back, diags)
			for _, d := range diags {
				t.Errorf("reading back: %+v", d)
			}
			golden.CompareJSON(t, name+".back.json", back)
			checkReadBack(t, tr, back)
		})
	}
}

// checkReadBack compares back, what the reader read of Write's file of
// in, with what Delivered says of in (times, text) and with in's styles:
// each visible code point of a cue whose text comes back unchanged keeps
// its italics, underline and (a teletext) colour, unless Changes says the
// colour moved.
func checkReadBack(t *testing.T, in, back *caption.Track) {
	t.Helper()
	want := Delivered(in)
	if len(back.Cues) != len(want.Cues) {
		t.Fatalf("read back %d cues, Delivered says %d", len(back.Cues), len(want.Cues))
	}
	moved := map[int]bool{}
	for _, d := range Changes(in) {
		if d.CueIndex != nil && strings.Contains(d.Message, "moved") {
			moved[*d.CueIndex] = true
		}
	}
	k := 0
	for i := range in.Cues {
		c := &in.Cues[i]
		if !Shows(c) {
			continue
		}
		w, b := want.Cues[k], back.Cues[k]
		k++
		if b.StartMs != w.StartMs || b.EndMs != w.EndMs || b.Text != w.Text {
			t.Errorf("cue %d read back %d-%d %q, Delivered says %d-%d %q", i, b.StartMs, b.EndMs, b.Text, w.StartMs, w.EndMs, w.Text)
		}
		if d := w.StartMs - c.StartMs; d > 20 || d < -20 {
			t.Errorf("cue %d starts %d ms from where it should", i, d)
		}
		if b.Text == c.Text && !moved[i] && !slices.Equal(styleOf(c), styleOf(&b)) {
			t.Errorf("cue %d styles %+v read back as %+v", i, c.Spans, b.Spans)
		}
	}
}

// styleOf returns the italics, underline and colour of each visible code
// point of c (not of spaces and line breaks), white as no colour.
func styleOf(c *caption.Cue) []caption.Span {
	out := make([]caption.Span, utf8.RuneCountInString(c.Text))
	k := 0
	for _, r := range c.Text {
		if !unicode.IsSpace(r) {
			for _, sp := range c.Spans {
				if sp.Start <= k && k < sp.End && !sp.Label {
					out[k].Italic = out[k].Italic || sp.Italic
					out[k].Underline = out[k].Underline || sp.Underline
					if sp.Color != "" && sp.Color != "#ffffff" {
						out[k].Color = sp.Color
					}
				}
			}
		}
		k++
	}
	return out
}

// TestWriteGSI checks the GSI fields the writer sets.
func TestWriteGSI(t *testing.T) {
	t.Parallel()
	tr := &caption.Track{Version: caption.Version, Language: "nl-BE", FrameRate: 30, Cues: []caption.Cue{
		{StartMs: 3_603_600, EndMs: 3_605_602, Text: strings.Repeat("long text ", 20)},
		{StartMs: 3_606_000, EndMs: 3_607_000, Text: "short"},
	}}
	var out bytes.Buffer
	if err := Encode(&out, tr, Options{Created: time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	b := out.Bytes()
	if len(b) != gsiSize+3*ttiSize {
		t.Fatalf("%d bytes, want the GSI and 3 TTI blocks", len(b))
	}
	g := parseGSI(b[:gsiSize])
	for _, f := range []struct{ name, got, want string }{
		{"CPN", g.cpn, "850"}, {"DFC", g.dfc, "STL30.01"}, {"DSC", string(g.dsc), "1"}, {"CCT", g.cct, "00"},
		{"LC", g.lc, "2A"}, {"TNB", g.tnb, "00003"}, {"TNS", string(b[243:248]), "00002"}, {"TNG", string(b[248:251]), "001"},
		{"MNC", string(b[251:253]), "40"}, {"MNR", string(b[253:255]), "23"}, {"TCS", string(g.tcs), "1"},
		{"TCP", g.tcp, "00000000"}, {"TCF", string(b[264:272]), "01000000"}, {"CD", string(b[224:230]), "261202"},
		{"RD", string(b[230:236]), "261202"},
	} {
		if f.got != f.want {
			t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
		}
	}
	first, second := parseTTI(b[gsiSize:]), parseTTI(b[gsiSize+ttiSize:])
	if first.sn != 1 || first.ebn != 0 || second.sn != 1 || second.ebn != ebnLast || parseTTI(b[gsiSize+2*ttiSize:]).sn != 2 {
		t.Errorf("subtitle numbers %d %d, extension blocks %02X %02X", first.sn, second.sn, first.ebn, second.ebn)
	}
	if first.tci != [4]int{1, 0, 0, 0} || first.tco != [4]int{1, 0, 2, 0} {
		t.Errorf("time codes %v %v, want 01:00:00:00 and 01:00:02:00 (30 fps on 29.97 video, 3,603.6 s and 3,605.6 s)", first.tci, first.tco)
	}
	if first.vp != 22 || first.jc != 2 {
		t.Errorf("VP %d JC %d, want 22 and 2", first.vp, first.jc)
	}
	var plain bytes.Buffer
	if err := Write(&plain, tr); err != nil {
		t.Fatal(err)
	}
	if got := string(plain.Bytes()[224:236]); got != "000101000101" {
		t.Errorf("without a date, CD and RD are %q", got)
	}
}

// TestChanges: the changes named are those the writer makes.
func TestChanges(t *testing.T) {
	t.Parallel()
	tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{
		{StartMs: 1000, EndMs: 2000, Text: "Fine é"},
		{StartMs: 2000, EndMs: 3000, Text: "Euro €"},
		{StartMs: 3000, EndMs: 4000, Text: "red inside", Spans: []caption.Span{{Start: 1, End: 3, Color: "#ff0000"}}},
		{StartMs: 4000, EndMs: 5010, Text: "thin\u2009space"},
	}}
	var got []string
	for _, d := range Changes(tr) {
		i := -1
		if d.CueIndex != nil {
			i = *d.CueIndex
		}
		got = append(got, string(d.Severity)+" "+strings.Repeat("*", i+1))
	}
	want := []string{"warning **", "warning ***", "info ****", "info "}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q: %+v", got, want, Changes(tr))
	}
}

// TestSubstitutesAreInTheTable: every substitute is written in
// characters table 00 has.
func TestSubstitutesAreInTheTable(t *testing.T) {
	t.Parallel()
	for r, s := range substitutes {
		for _, c := range s {
			if _, ok := latinBytes()[c]; !ok {
				t.Errorf("the substitute %q of %q has %q, which table 00 lacks", s, string(r), string(c))
			}
		}
	}
}
