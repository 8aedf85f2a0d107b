package ttml

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWriteEBUTTDSynth writes the 2,000 cues of the synthetic SRT
// (italics, speaker dashes, entities, overlaps) as EBU-TT-D and reads
// them back whole.
func TestWriteEBUTTDSynth(t *testing.T) {
	t.Parallel()
	in, _, err := srt.Parse(bytes.NewReader(synth.SRT(2000)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteEBUTTD(&out, in); err != nil {
		t.Fatal(err)
	}
	back, _ := golden.MustParse(t, Parse, out.Bytes())
	CheckEBUTTDReadBack(t, in, back)
}

// FuzzWriteEBUTTD writes a cue of any text with styled spans from
// offsets the input gives and reads it back: text, times and styles
// whole, or no cue when ShowsEBUTTD says so.
func FuzzWriteEBUTTD(f *testing.F) {
	for _, s := range []string{"Hello there", "a  b\n c ", "<&>\"'", "\u0001x\uFFFE", "東京\né\u0301"} {
		f.Add(s, 0, 3, 2, 8)
	}
	f.Fuzz(func(t *testing.T, text string, a, b, c, d int) {
		if !utf8.ValidString(text) {
			return
		}
		for _, r := range text {
			if !xmlChar(r) || r == '\r' {
				return // dropped or rewritten by XML itself, as TTML's writer does
			}
		}
		if lines := strings.Split(text, "\n"); len(lines) > 1 && slices.ContainsFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "" }) {
			return // not IR cue text: a cue has no empty line, which every writer drops
		}
		n := utf8.RuneCountInString(text)
		clamp := func(v int) int { return min(max(v, 0), n) }
		var spans []caption.Span
		if s, e := clamp(a), clamp(b); s < e {
			spans = append(spans, caption.Span{Start: s, End: e, Italic: true, Color: "#00ff00"})
		}
		if s, e := clamp(c), clamp(d); s < e && (len(spans) == 0 || e <= spans[0].Start || s >= spans[0].End) {
			spans = append(spans, caption.Span{Start: s, End: e, Underline: true, Background: "#123456"})
		}
		in := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{{StartMs: 1000, EndMs: 2000, Text: text, Spans: spans}}}
		var out bytes.Buffer
		if err := WriteEBUTTD(&out, in); err != nil {
			t.Fatal(err)
		}
		back, _ := golden.MustParse(t, Parse, out.Bytes())
		CheckEBUTTDReadBack(t, in, back)
	})
}
