package srt

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWrite covers IR that no SRT file reads into: IDs that are not
// counters, blank and space-only lines, overlapping spans, start/end
// alignment and invalid colours.
func TestWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cue  caption.Cue
		want string
	}{
		{"renumbered, LF", caption.Cue{ID: "intro", StartMs: 1, EndMs: 360_000_000, Text: "a"},
			"1\n00:00:00,001 --> 100:00:00,000\na\n\n"},
		{"blank and space-only lines dropped, trailing spaces trimmed", caption.Cue{Text: "a  \n\n \t\nb"},
			"1\n00:00:00,000 --> 00:00:00,000\na\nb\n\n"},
		{"empty text left out", caption.Cue{Text: ""}, ""},
		{"white space left out", caption.Cue{Text: " \u00a0\n\t"}, ""},
		{"overlapping spans", caption.Cue{Text: "abcd", Spans: []caption.Span{{Start: 0, End: 3, Italic: true}, {Start: 1, End: 4, Bold: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\n<i>a<b>bc</b></i><b>d</b>\n\n"},
		{"span offsets survive a dropped line", caption.Cue{Text: "a\n\nbc", Spans: []caption.Span{{Start: 3, End: 4, Underline: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\na\n<u>b</u>c\n\n"},
		{"invalid colour dropped", caption.Cue{Text: "x", Spans: []caption.Span{{Start: 0, End: 1, Color: `red" onload="`}}},
			"1\n00:00:00,000 --> 00:00:00,000\nx\n\n"},
		{"start/end alignment", caption.Cue{Text: "x", Placement: &caption.Placement{Area: caption.AreaBottom, Align: "end"}},
			"1\n00:00:00,000 --> 00:00:00,000\n{\\an3}x\n\n"},
		{"escapes", caption.Cue{Text: "<b> &amp; {\\an8} {b} 00:00:01,000 --> 00:00:02,000"},
			"1\n00:00:00,000 --> 00:00:00,000\n\u2039b\u203a &amp;amp; (\\an8) (b) 00:00:01,000 --> 00:00:02,000\n\n"},
		{"text that reads as a tag", caption.Cue{Text: "<LAUGHING & WHOOPS!>\na < b & c > d"},
			"1\n00:00:00,000 --> 00:00:00,000\n\u2039LAUGHING & WHOOPS!\u203a\na \u2039 b & c \u203a d\n\n"},
		{"styled text that reads as a tag", caption.Cue{Text: "<a> b", Spans: []caption.Span{{Start: 1, End: 5, Italic: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\n\u2039<i>a\u203a b</i>\n\n"},
		{"a tag across lines", caption.Cue{Text: "<LAUGHING  \n\nWHOOPS>"},
			"1\n00:00:00,000 --> 00:00:00,000\n\u2039LAUGHING\nWHOOPS\u203a\n\n"},
		{"arrow in text stays", caption.Cue{Text: "Text with --> arrow inside\n--> and ---> here"},
			"1\n00:00:00,000 --> 00:00:00,000\nText with --> arrow inside\n--> and ---> here\n\n"},
		{"styled arrow stays", caption.Cue{Text: "a --> b", Spans: []caption.Span{{Start: 0, End: 7, Italic: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\n<i>a --> b</i>\n\n"},
		{"line reading as timing", caption.Cue{Text: "12\n00:00:01,000 --> 00:00:02,000 --> x\n 1:02:03 -->4:05:06"},
			"1\n00:00:00,000 --> 00:00:00,000\n12\n00:00:01,000 --\u203a 00:00:02,000 --\u203a x\n 1:02:03 --\u203a4:05:06\n\n"},
		{"styled line reading as timing", caption.Cue{Text: "00:00:01,000 --> 00:00:02,000", Spans: []caption.Span{{Start: 17, End: 29, Bold: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\n00:00:01,000 --\u203a <b>00:00:02,000</b>\n\n"},
		{"plain brackets stay", caption.Cue{Text: "a < b, c > d } { e I <3 you \\ \\a"},
			"1\n00:00:00,000 --> 00:00:00,000\na < b, c > d } { e I <3 you \\ \\a\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := Write(&out, &caption.Track{Cues: []caption.Cue{tt.cue}}); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestWriteDeterministic writes the same track twice.
func TestWriteDeterministic(t *testing.T) {
	t.Parallel()
	for _, c := range suite().Cases(t) {
		tr, _ := golden.MustParse(t, Parse, c.Input)
		if !bytes.Equal(golden.MustWrite(t, Write, tr), golden.MustWrite(t, Write, tr)) {
			t.Errorf("%s: two writes differ", c.Path)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

var errFail = bytes.ErrTooLarge

func TestWriteError(t *testing.T) {
	t.Parallel()
	err := Write(failWriter{}, &caption.Track{Cues: []caption.Cue{{Text: "x"}}})
	if err == nil || !errors.Is(err, errFail) {
		t.Errorf("Write error = %v, want one wrapping %v", err, errFail)
	}
}

// TestRewritesArrow checks [RewritesArrow] against what a written cue
// reads back as: it is true exactly when the text comes back different.
func TestRewritesArrow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{"Text with --> arrow inside", false},
		{"--> at the start", false},
		{"1 --> 2 apples", false},
		{"12\n34", false},
		{"00:00:01,000 --> 00:00:02,000", true},
		{"an intro line\n00:00:01.5 --> 00:00:02 and text after", true},
		{"00:00:01,000 --> 00:00:02,000   ", true},
		{"00:00:01,000 -> 00:00:02,000", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			if got := RewritesArrow(tt.text); got != tt.want {
				t.Errorf("RewritesArrow = %v, want %v", got, tt.want)
			}
			tr := &caption.Track{Cues: []caption.Cue{{StartMs: 0, EndMs: 1000, Text: tt.text}}}
			again, _ := golden.MustParse(t, Parse, golden.MustWrite(t, Write, tr))
			if len(again.Cues) != 1 {
				t.Fatalf("reads back as %d cues", len(again.Cues))
			}
			if changed := again.Cues[0].Text != trimLineEnds(tt.text); changed != tt.want {
				t.Errorf("reads back as %q: changed %v, want %v", again.Cues[0].Text, changed, tt.want)
			}
		})
	}
}

// trimLineEnds removes the trailing spaces the writer drops.
func trimLineEnds(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = trimRightSpace(l)
	}
	return strings.Join(lines, "\n")
}
