package format

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestChangesMatchWriters writes one cue at a time in every output format
// and reads it back. Only the SCC, SRT and EBU STL writers change what
// they deliver: the cue comes back different (its text, the italics, underline
// and colour of its characters, or its times by more than a frame)
// exactly when Changes names it. The other formats change nothing, and
// Changes says so.
func TestChangesMatchWriters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cue  caption.Cue
	}{
		{"plain", caption.Cue{Text: "Hello there."}},
		{"608 has it all", caption.Cue{Text: "Ça coûte 5 £ — ¡ay! ♪ {x} *y*"}},
		{"long line", caption.Cue{Text: "This line is much longer than the thirty-two columns of 608."}},
		{"five rows", caption.Cue{Text: "one\ntwo\nthree\nfour\nfive"}},
		{"euro and ellipsis", caption.Cue{Text: "It costs 5 €…"}},
		{"starts at once", caption.Cue{StartMs: 0, EndMs: 2000, Text: "Starts at once."}},
		{"italics in colour", caption.Cue{Text: "Red italics", Spans: []caption.Span{{Start: 0, End: 3, Italic: true, Color: "#ff0000"}}}},
		{"style inside a word", caption.Cue{Text: "Hello there", Spans: []caption.Span{{Start: 0, End: 3, Italic: true}}}},
		{"styles at spaces", caption.Cue{Text: "Plain, red and italic", Spans: []caption.Span{
			{Start: 7, End: 10, Color: "#ff0000"}, {Start: 15, End: 21, Italic: true, Underline: true}}}},
		{"text in angle brackets", caption.Cue{Text: "<LAUGHING & WHOOPS!>"}},
		{"styled text in angle brackets", caption.Cue{Text: "Hi <b>there</b>", Spans: []caption.Span{{Start: 0, End: 2, Italic: true}}}},
		{"angle brackets around words", caption.Cue{Text: "3 < 4 and 5 > 2"}},
		{"line reading as timing", caption.Cue{Text: "00:00:05,000 --> 00:00:06,000"}},
		{"colour inside a word", caption.Cue{Text: "Hello there", Spans: []caption.Span{{Start: 2, End: 8, Color: "#ffff00"}}}},
		{"not Latin", caption.Cue{Text: "Привет, мир"}},
		{"teletext colours after spaces", caption.Cue{Text: "one  two three", Spans: []caption.Span{{Start: 5, End: 8, Color: "#00ffff"}, {Start: 9, End: 14, Color: "#ff00ff", Underline: true}}}},
	}
	for _, f := range Writable() {
		for _, tc := range cases {
			t.Run(f+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				c := tc.cue
				if c.EndMs == 0 {
					c.StartMs, c.EndMs = 2000, 5000
				}
				in := &caption.Track{Version: caption.Version, Cues: []caption.Cue{c}}
				changes := Changes(f, in)
				named := slices.ContainsFunc(changes, func(d caption.Diagnostic) bool {
					return d.CueIndex != nil && *d.CueIndex == 0 && d.Severity == caption.SeverityWarning
				})
				if f != SCC && f != SRT && f != STL {
					if changes != nil {
						t.Fatalf("Changes = %+v; want none", changes)
					}
					return
				}
				out, file := writeRead(t, f, in)
				if differs := differs(&in.Cues[0], out); differs != named {
					t.Errorf("read back %+v: differs %v; Changes names the cue: %v %+v\n%s", out.Cues, differs, named, changes, file)
				}
			})
		}
	}
}

// differs reports whether out does not hold cue c as it was: one cue,
// the same text and styling, times within a frame.
func differs(c *caption.Cue, out *caption.Track) bool {
	if len(out.Cues) != 1 {
		return true
	}
	o := &out.Cues[0]
	near := func(a, b int64) bool { return a-b <= 34 && b-a <= 34 }
	return o.Text != c.Text || !near(o.StartMs, c.StartMs) || !near(o.EndMs, c.EndMs) || !slices.Equal(styleOf(c), styleOf(o))
}

// styleOf returns the italics, underline and colour of each visible code
// point of c.
func styleOf(c *caption.Cue) []caption.Span {
	n := utf8.RuneCountInString(c.Text)
	out := make([]caption.Span, n)
	k := 0
	for _, r := range c.Text {
		if r != ' ' {
			for _, sp := range c.Spans {
				if sp.Start <= k && k < sp.End {
					out[k].Italic = out[k].Italic || sp.Italic
					out[k].Underline = out[k].Underline || sp.Underline
					if sp.Color != "" {
						out[k].Color = sp.Color
					}
				}
			}
		}
		k++
	}
	return out
}
