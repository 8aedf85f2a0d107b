package bench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/asticode/go-astisub"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/stl"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/caption/ttml"
)

// joinExtensions joins the items go-astisub reads from the extension
// blocks of a subtitle: it makes an item of each TTI block, where EBU
// Tech 3264 continues a subtitle's text in the blocks up to the one with
// extension block number FF. The file has no user data blocks, so item i
// is block i; the text of a block goes on the last line of the one
// before, as the writer splits text anywhere between characters.
//
// split reports, for each subtitle, whether a row of it is split between
// blocks (the writer splits only a row longer than a text field): the
// block that goes on with it starts without a start box, and go-astisub
// shows nothing of it before the next row.
func joinExtensions(file []byte, items []*astisub.Item) (out []*astisub.Item, split []bool) {
	last := true // the block before was the last of its subtitle
	for i, it := range items {
		block := file[1024+128*i:]
		if last {
			out = append(out, it)
			split = append(split, false)
		} else {
			split[len(split)-1] = split[len(split)-1] || block[16] != 0x0B
			if cur := out[len(out)-1]; len(it.Lines) > 0 && len(cur.Lines) > 0 {
				end := &cur.Lines[len(cur.Lines)-1]
				end.Items = append(end.Items, it.Lines[0].Items...)
				cur.Lines = append(cur.Lines, it.Lines[1:]...)
			}
		}
		last = block[3] == 0xFF
	}
	return out, split
}

// ntsc returns a time go-astisub read from an STL30.01 file, where it
// counts 30 frames a second, as the frames of 29.97 fps video the
// project's reader and writer take them for (1001/30 ms each).
func ntsc(d time.Duration) time.Duration {
	frames := (d.Milliseconds()*30 + 500) / 1000
	return time.Duration((frames*1001*2+30)/60) * time.Millisecond
}

// TestAstisubReadsWriters reads what the EBU STL and EBU-TT-D writers
// write with go-astisub, a reader CaptionQA does not share code with,
// and compares, cue by cue: the cues each writer delivers (stl.Delivered,
// ttml.ShowsEBUTTD), their times to the millisecond, their text (for
// EBU-TT-D white space folded; for EBU STL as bare says), and the code
// points in italics
// and underlined, and for EBU-TT-D in each colour. go-astisub makes an
// item of each TTI block (joinExtensions joins a subtitle's, and a row
// longer than a block, which it cannot read, is not compared) and counts
// STL30.01 time codes at 30 fps (ntsc converts). It reads no
// colour from an STL text field (its TeletextColor is for teletext in
// MPEG-TS), so the STL colours are checked by the project's own reader
// only (backend/caption/stl's TestWriteGolden). The inputs are the
// writers' golden IR tracks and 300 cues of the synthetic SRT.
func TestAstisubReadsWriters(t *testing.T) {
	var inputs []*caption.Track
	for _, pattern := range []string{"../backend/caption/stl/testdata/write/*.in.json", "../backend/caption/ttml/testdata/ebuttd/*.in.json"} {
		paths, _ := filepath.Glob(pattern)
		if len(paths) == 0 {
			t.Fatalf("no inputs match %s", pattern)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := caption.ParseJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, tr)
		}
	}
	syn, _, err := srt.Parse(bytes.NewReader(synth.SRT(300)))
	if err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, syn)
	for n, in := range inputs {
		for _, f := range []string{format.STL, format.EBUTTD} {
			var out bytes.Buffer
			if err := format.Write(f, &out, in); err != nil {
				t.Fatal(err)
			}
			var subs *astisub.Subtitles
			var want []caption.Cue
			if f == format.STL {
				subs, err = astisub.ReadFromSTL(bytes.NewReader(out.Bytes()), astisub.STLOptions{})
				want = stl.Delivered(in).Cues
				// Delivered leaves spans out; a cue whose text the writer
				// kept keeps its styles.
				k := 0
				for i := range in.Cues {
					if stl.Shows(&in.Cues[i]) {
						if want[k].Text == in.Cues[i].Text {
							want[k].Spans = in.Cues[i].Spans
						}
						k++
					}
				}
			} else {
				subs, err = astisub.ReadFromTTML(bytes.NewReader(out.Bytes()))
				for _, c := range in.Cues {
					if ttml.ShowsEBUTTD(&c) {
						want = append(want, c)
					}
				}
			}
			if err != nil {
				t.Errorf("input %d, %s: go-astisub: %v", n, f, err)
				continue
			}
			var split []bool
			if f == format.STL {
				subs.Items, split = joinExtensions(out.Bytes(), subs.Items)
				if math.Abs(in.FrameRate-29.97) < 0.01 {
					for _, it := range subs.Items {
						it.StartAt, it.EndAt = ntsc(it.StartAt), ntsc(it.EndAt)
					}
				}
			}
			compareAstisub(t, f, n, want, subs, split)
		}
	}
}

func compareAstisub(t *testing.T, f string, n int, want []caption.Cue, subs *astisub.Subtitles, split []bool) {
	t.Helper()
	if len(subs.Items) != len(want) {
		t.Errorf("input %d, %s: go-astisub reads %d cues, want %d", n, f, len(subs.Items), len(want))
		return
	}
	for i, it := range subs.Items {
		w := &want[i]
		if i < len(split) && split[i] {
			t.Logf("input %d, %s, cue %d: a row is split between TTI blocks, which go-astisub does not read; the text is not compared", n, f, i)
			continue
		}
		start, end := it.StartAt.Milliseconds(), it.EndAt.Milliseconds()
		var text, italic, underline, colour strings.Builder
		for l, line := range it.Lines {
			if l > 0 {
				text.WriteByte(' ')
			}
			for _, li := range line.Items {
				text.WriteString(li.Text)
				st := attrs(&li)
				for _, r := range li.Text {
					if unicode.IsSpace(r) {
						continue
					}
					if st.italic {
						italic.WriteRune(r)
					}
					if st.underline {
						underline.WriteRune(r)
					}
					if st.colour != "" && st.colour != "#ffffff" {
						colour.WriteString(string(r) + st.colour)
					}
				}
			}
		}
		wi, wu, wc := styled(w)
		switch {
		case start != w.StartMs || end != w.EndMs:
			t.Errorf("input %d, %s, cue %d: go-astisub reads %d-%d ms, want %d-%d", n, f, i, start, end, w.StartMs, w.EndMs)
		case f == format.STL && bare(text.String()) != bare(w.Text), f == format.EBUTTD && fold(text.String()) != fold(w.Text):
			t.Errorf("input %d, %s, cue %d: go-astisub reads %q, want %q", n, f, i, text.String(), w.Text)
		case italic.String() != wi || underline.String() != wu:
			t.Errorf("input %d, %s, cue %d: go-astisub reads italics %q underline %q, want %q %q", n, f, i, italic.String(), underline.String(), wi, wu)
		case f == format.EBUTTD && colour.String() != wc:
			t.Errorf("input %d, %s, cue %d: go-astisub reads colours %q, want %q", n, f, i, colour.String(), wc)
		}
	}
}

// style is what go-astisub says of a line item: its inline style over
// its style's.
type style struct {
	italic, underline bool
	colour            string
}

func attrs(li *astisub.LineItem) style {
	var s style
	for _, sa := range []*astisub.StyleAttributes{styleOf(li), li.InlineStyle} {
		if sa == nil {
			continue
		}
		if sa.STLItalics != nil {
			s.italic = *sa.STLItalics
		}
		if sa.STLUnderline != nil {
			s.underline = *sa.STLUnderline
		}
		if sa.TTMLFontStyle != nil {
			s.italic = *sa.TTMLFontStyle == "italic"
		}
		if sa.TTMLTextDecoration != nil {
			s.underline = strings.Contains(*sa.TTMLTextDecoration, "underline")
		}
		if sa.TTMLColor != nil {
			s.colour = strings.ToLower(*sa.TTMLColor)
		}
	}
	return s
}

func styleOf(li *astisub.LineItem) *astisub.StyleAttributes {
	if li.Style == nil {
		return nil
	}
	return li.Style.InlineStyle
}

// styled returns the visible code points of c in italics, underlined, and
// in a colour (each followed by it), as compareAstisub collects them.
func styled(c *caption.Cue) (italic, underline, colour string) {
	var i, u, col strings.Builder
	k := 0
	for _, r := range c.Text {
		if !unicode.IsSpace(r) {
			var s style
			for _, sp := range c.Spans {
				if sp.Start <= k && k < sp.End {
					s.italic = s.italic || sp.Italic
					s.underline = s.underline || sp.Underline
					if sp.Color != "" {
						s.colour = sp.Color
					}
				}
			}
			if s.italic {
				i.WriteRune(r)
			}
			if s.underline {
				u.WriteRune(r)
			}
			if s.colour != "" && s.colour != "#ffffff" {
				col.WriteString(string(r) + s.colour)
			}
		}
		k++
	}
	return i.String(), u.String(), col.String()
}

// fold folds white space to one space.
func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// bare is STL text as the comparison reads it: without white space, as
// go-astisub trims the text of each run of one style (so "red" between
// two colour codes loses the spaces about it); without marks, as it reads
// a spacing mark ("´", the mark and a space in the file) as a combining
// mark on a space; with 0xD0 as the em dash, where go-astisub reads the
// horizontal bar.
func bare(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Sk, r):
			return -1
		case r == '―':
			return '—'
		}
		return r
	}, s)
}
