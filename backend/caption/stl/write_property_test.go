package stl

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWriteSynth writes the 2,000 cues of the synthetic SRT (italics,
// speaker dashes, overlaps, at 25 fps and at 29.97) and reads them back:
// what Delivered says, with the styles.
func TestWriteSynth(t *testing.T) {
	t.Parallel()
	in, _, err := srt.Parse(bytes.NewReader(synth.SRT(2000)))
	if err != nil {
		t.Fatal(err)
	}
	for _, fps := range []float64{0, 29.97} {
		in.FrameRate = fps
		var out bytes.Buffer
		if err := Write(&out, in); err != nil {
			t.Fatal(err)
		}
		back, diags := golden.MustParse(t, Parse, out.Bytes())
		checkInvariants(t, back, diags)
		checkReadBack(t, in, back)
	}
}

// FuzzWrite writes a cue of any text, with an italic span, a teletext
// colour and a colour teletext lacks from offsets the input gives, and
// reads it back: the reader gives what Delivered says, and no panic.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"Hello there", "Ça coûte 5 € — ¡ay!\nsecond line", "  \n\u200b", "a  b\tc", "東京 é\u0301", "x´ y¨"} {
		f.Add(s, 0, 3, 2, 8)
	}
	f.Fuzz(func(t *testing.T, text string, a, b, c, d int) {
		if !utf8.ValidString(text) {
			return
		}
		n := utf8.RuneCountInString(text)
		clamp := func(v int) int { return min(max(v, 0), n) }
		in := &caption.Track{Version: caption.Version, Cues: []caption.Cue{{StartMs: 1000, EndMs: 2000, Text: text, Spans: []caption.Span{
			{Start: clamp(a), End: clamp(b), Italic: true, Color: "#00ff00"},
			{Start: clamp(c), End: clamp(d), Underline: true, Color: "#123456"},
		}}}}
		var out bytes.Buffer
		if err := Write(&out, in); err != nil {
			t.Fatal(err)
		}
		back, diags := golden.MustParse(t, Parse, out.Bytes())
		want := Delivered(in)
		if len(want.Cues) == 0 {
			if len(back.Cues) != 0 {
				t.Fatalf("read back %+v, Delivered says none", back.Cues)
			}
			return
		}
		checkInvariants(t, back, diags)
		if len(back.Cues) != 1 || back.Cues[0].Text != want.Cues[0].Text {
			t.Fatalf("read back %+v, Delivered says %q", back.Cues, want.Cues[0].Text)
		}
	})
}
