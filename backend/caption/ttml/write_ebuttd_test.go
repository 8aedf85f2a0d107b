package ttml

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWriteEBUTTDGolden writes each testdata/ebuttd/<case>.in.json, a
// small IR track (styles, colours and backgrounds, line breaks, a span
// language, markup characters, runs of spaces, top, middle, left and
// right placement, a cue without id, an hour in, non-Latin text, a cue
// without duration), as <case>.want.xml, reads it back with Parse as
// <case>.back.json, and checks the read-back: the cues ShowsEBUTTD
// passes, their times, text, language and style of each code point.
func TestWriteEBUTTDGolden(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob("testdata/ebuttd/*.in.json")
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
			if err := WriteEBUTTD(&out, tr); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, name+".want.xml", out.Bytes())
			back, diags := golden.MustParse(t, Parse, out.Bytes())
			for _, d := range diags {
				t.Errorf("reading back: %+v", d)
			}
			golden.CompareJSON(t, name+".back.json", back)
			CheckEBUTTDReadBack(t, tr, back)
		})
	}
}

// CheckEBUTTDReadBack fails t unless back, the ttml reader's reading of
// WriteEBUTTD's document of in, holds the cues ShowsEBUTTD passes with
// their times, text, area, alignment, and each code point's italics,
// bold, underline, colour, background and language.
func CheckEBUTTDReadBack(t testing.TB, in, back *caption.Track) {
	t.Helper()
	var want []caption.Cue
	for _, c := range in.Cues {
		if ShowsEBUTTD(&c) {
			want = append(want, c)
		}
	}
	if len(back.Cues) != len(want) {
		t.Fatalf("read back %d cues, want %d", len(back.Cues), len(want))
	}
	if l := in.Language; l != "" && back.Language != l {
		t.Errorf("language %q read back as %q", l, back.Language)
	}
	for i := range want {
		w, b := &want[i], &back.Cues[i]
		if b.StartMs != w.StartMs || b.EndMs != w.EndMs || b.Text != w.Text {
			t.Errorf("cue %d %d-%d %q read back as %d-%d %q", i, w.StartMs, w.EndMs, w.Text, b.StartMs, b.EndMs, b.Text)
		}
		if !slices.Equal(spanStyleOf(w), spanStyleOf(b)) {
			t.Errorf("cue %d spans %+v read back as %+v", i, w.Spans, b.Spans)
		}
		var wa, ba, wl, bl string
		if w.Placement != nil {
			wa, wl = w.Placement.Area, w.Placement.Align
		}
		if b.Placement != nil {
			ba, bl = b.Placement.Area, b.Placement.Align
		}
		if wa == caption.AreaBottom {
			wa = ""
		}
		if ba == caption.AreaBottom {
			ba = ""
		}
		if wa != ba || wl != bl {
			t.Errorf("cue %d area %q align %q read back as %q %q", i, wa, wl, ba, bl)
		}
	}
}

// spanStyleOf returns the style of each code point of c but line breaks,
// which a <br/> outside the spans writes.
func spanStyleOf(c *caption.Cue) []caption.Span {
	runes := []rune(c.Text)
	out := make([]caption.Span, len(runes))
	for _, sp := range c.Spans {
		for k := max(sp.Start, 0); k < min(sp.End, len(out)); k++ {
			if runes[k] == '\n' {
				continue
			}
			o := &out[k]
			o.Italic, o.Bold, o.Underline = o.Italic || sp.Italic, o.Bold || sp.Bold, o.Underline || sp.Underline
			if sp.Color != "" {
				o.Color = sp.Color
			}
			if sp.Background != "" {
				o.Background = sp.Background
			}
			if sp.Lang != "" {
				o.Lang = sp.Lang
			}
		}
	}
	return out
}
