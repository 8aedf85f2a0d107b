package vtt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestCollectTimestamp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		wantMs int64
		ok     bool
	}{
		{"00:01.000", 1000, true},
		{"59:59.999", 3_599_999, true},
		{"00:00:01.000", 1000, true},
		{"1:00:00.000", 3_600_000, true},
		{"100:00:00.000", 360_000_000, true},
		{"60:00.000", 0, false}, // two digits over 59 mean hours, so a third field is needed
		{"00:60:00.000", 0, false},
		{"00:00:60.000", 0, false},
		{"00:00:01,000", 0, false},
		{"00:00:01.00", 0, false},
		{"00:00:01.0000", 0, false}, // exactly three digits of milliseconds
		{"0:01.000", 0, false},
		{"", 0, false},
		{"x", 0, false},
	}
	for _, tt := range tests {
		ts, _, ok := collectTimestamp(tt.in, 0)
		if ok != tt.ok || (ok && ts.ms != tt.wantMs) {
			t.Errorf("collectTimestamp(%q) = %d, %v; want %d, %v", tt.in, ts.ms, ok, tt.wantMs, tt.ok)
		}
	}
}

func TestCueText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		payload, text, voice string
		spans                int
		keepRaw              bool
	}{
		{"plain", "plain", "", 0, false},
		{"a &amp; b &lt;c&gt;", "a & b <c>", "", 0, false},
		{"&#x41;&#66;&#0;", "AB\uFFFD", "", 0, false},
		{"<i>a</i>b", "ab", "", 1, false},
		{"<v Bob>hi", "hi", "Bob", 0, false},
		{"<v A>x</v> <v B>y</v>", "x y", "", 2, false},
		{"<ruby>a<rt>b</rt></ruby>", "a", "", 0, true},
		{"a<00:00:01.000>b", "ab", "", 0, true},
		{"<c.a.b>x", "x", "", 1, false},
		{"<lang fr>oui", "oui", "", 1, false},
		{"<", "", "", 0, false},
		{"a\nb", "a\nb", "", 0, false},
	}
	var tp textParser
	for _, tt := range tests {
		got := tp.parse(tt.payload)
		if got.text != tt.text || got.voice != tt.voice || len(got.spans) != tt.spans || got.keepRaw != tt.keepRaw {
			t.Errorf("parse(%q) = %q voice %q spans %v keepRaw %v; want %q, %q, %d spans, %v",
				tt.payload, got.text, got.voice, got.spans, got.keepRaw, tt.text, tt.voice, tt.spans, tt.keepRaw)
		}
	}
}

// TestWriteEscapes checks that IR text which would break a WebVTT file is
// written so that it reads back unchanged.
func TestWriteEscapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, id, text, want string
	}{
		{"arrow", "", "a --> b", "a --&gt; b"},
		{"markup", "", "<i> & </i>", "&lt;i&gt; &amp; &lt;/i&gt;"},
		{"blank line", "", "a\n\nb", "a\n&#10;b"},
		{"leading newline", "", "\na", "&#10;a"},
		{"carriage return", "", "a\rb", "a&#13;b"},
		{"id with arrow and break", "x-->y\nz", "t", "t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{{ID: tt.id, StartMs: 1000, EndMs: 2000, Text: tt.text}}}
			var out bytes.Buffer
			if err := Write(&out, in); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "\n"+tt.want+"\n") {
				t.Errorf("output does not contain %q:\n%s", tt.want, out.String())
			}
			back, _, err := Parse(&out)
			if err != nil || len(back.Cues) != 1 {
				t.Fatalf("read back: %v, %d cues", err, len(back.Cues))
			}
			if got := back.Cues[0].Text; got != tt.text {
				t.Errorf("read back text %q, want %q", got, tt.text)
			}
			if got := back.Cues[0].ID; strings.Contains(got, "-->") || strings.Contains(got, "\n") {
				t.Errorf("read back id %q", got)
			}
		})
	}
}

// TestWriteSpansAndPlacement checks markup and settings built from an IR
// that did not come from WebVTT (overlapping spans, an area only, values
// out of range).
func TestWriteSpansAndPlacement(t *testing.T) {
	t.Parallel()
	big, neg := 140.0, -3.0
	in := &caption.Track{Language: "en\nGB", Cues: []caption.Cue{
		{StartMs: 0, EndMs: 1000, Text: "one two three",
			Spans:     []caption.Span{{Start: 0, End: 7, Italic: true}, {Start: 4, End: 13, Bold: true, Class: "a.b c"}},
			Placement: &caption.Placement{Area: caption.AreaMiddle, Position: &big, Size: &neg, Align: "middle", Region: "missing"}},
		{StartMs: 1000, EndMs: 2000, Text: "top", Voice: "Ann <1>", Placement: &caption.Placement{Area: caption.AreaTop}},
	}}
	var out bytes.Buffer
	if err := Write(&out, in); err != nil {
		t.Fatal(err)
	}
	want := "WEBVTT\nLanguage: en GB\n\n" +
		"00:00:00.000 --> 00:00:01.000 line:50%,center position:100% size:0%\n<i>one </i><c.ab.c><i><b>two</b></i><b> three</b></c>\n\n" +
		"00:00:01.000 --> 00:00:02.000 line:0\n<v Ann &lt;1&gt;>top\n"
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseDiagnostics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		code     string
		line     int
	}{
		{"missing header", "00:01.000 --> 00:02.000\nx\n", caption.CodeMissingWebVTTHeader, 1},
		{"bad timing", "WEBVTT\n\n00:01 --> 00:02.000\nx\n", caption.CodeInvalidTimestamp, 3},
		{"bad setting", "WEBVTT\n\n00:01.000 --> 00:02.000 size:200%\nx\n", caption.CodeInvalidSetting, 3},
		{"end before start", "WEBVTT\n\n00:02.000 --> 00:01.000\nx\n", caption.CodeEndBeforeStart, 3},
		{"stray block", "WEBVTT\n\nhello\n\n00:01.000 --> 00:02.000\nx\n", caption.CodeMalformedBlock, 3},
		{"markup", "WEBVTT\n\n00:01.000 --> 00:02.000\nx\n<blink>y\n", caption.CodeInvalidMarkup, 5},
		{"empty", "", caption.CodeEmptyInput, 0},
		{"no cues", "WEBVTT\n", caption.CodeNoCues, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, diags, err := Parse(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diags {
				if d.Code == tt.code && d.Line == tt.line {
					return
				}
			}
			t.Errorf("no %s on line %d in %+v", tt.code, tt.line, diags)
		})
	}
}
