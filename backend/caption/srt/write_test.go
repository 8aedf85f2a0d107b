package srt

import (
	"bytes"
	"errors"
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
		{"empty text", caption.Cue{Text: ""}, "1\n00:00:00,000 --> 00:00:00,000\n\n"},
		{"overlapping spans", caption.Cue{Text: "abcd", Spans: []caption.Span{{Start: 0, End: 3, Italic: true}, {Start: 1, End: 4, Bold: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\n<i>a<b>bc</b></i><b>d</b>\n\n"},
		{"span offsets survive a dropped line", caption.Cue{Text: "a\n\nbc", Spans: []caption.Span{{Start: 3, End: 4, Underline: true}}},
			"1\n00:00:00,000 --> 00:00:00,000\na\n<u>b</u>c\n\n"},
		{"invalid colour dropped", caption.Cue{Text: "x", Spans: []caption.Span{{Start: 0, End: 1, Color: `red" onload="`}}},
			"1\n00:00:00,000 --> 00:00:00,000\nx\n\n"},
		{"start/end alignment", caption.Cue{Text: "x", Placement: &caption.Placement{Area: caption.AreaBottom, Align: "end"}},
			"1\n00:00:00,000 --> 00:00:00,000\n{\\an3}x\n\n"},
		{"escapes", caption.Cue{Text: "<b> &amp; {\\an8} {b} 00:00:01,000 --> 00:00:02,000"},
			"1\n00:00:00,000 --> 00:00:00,000\n&lt;b> &amp;amp; &#123;\\an8} &#123;b} 00:00:01,000 --&gt; 00:00:02,000\n\n"},
		{"plain angle brackets stay", caption.Cue{Text: "a < b & c > d {e}"},
			"1\n00:00:00,000 --> 00:00:00,000\na < b & c > d {e}\n\n"},
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
