package stl

import (
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// Control codes of a text field.
const (
	crlf         = 0x8A // line break
	italicOn     = 0x80
	italicOff    = 0x81
	underlineOn  = 0x82
	underlineOff = 0x83
	boxingOn     = 0x84
	boxingOff    = 0x85
	doubleHeight = 0x0D
	startBox     = 0x0B
	endBox       = 0x0A
	blackBG      = 0x1C
	newBG        = 0x1D
)

// teletextColour is a read-only table of the IR colour of the teletext
// alphanumeric colour codes 0x00-0x07; white, the default, makes no span.
var teletextColour = [8]string{"#000000", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", ""}

// decoded is a text field as cue text.
type decoded struct {
	text  string
	spans []caption.Span
	lines int
	// double is set when a line is double height (it takes two rows).
	double bool
	// undefined counts bytes the character code table leaves undefined;
	// mosaic is set when mosaic graphics codes were met.
	undefined int
	mosaic    bool
}

// cellRun is one character of a line and its style.
type cellRun struct {
	r  rune
	st caption.Span
}

// decodeText turns a text field into lines of text and spans, as a viewer
// reads them:
//
//   - 0x8A breaks the line; lines that show nothing are dropped.
//   - Teletext control codes 0x00-0x1F take a character position, which
//     shows as a space: each makes at most one space between words and
//     none at the ends of a line. The alphanumeric colour codes set the
//     text colour and 0x1D (new background) the background, from the
//     start of each line, white on the default black box; 0x1C brings the
//     black box back. Boxing, size, flashing and the mosaic codes change
//     nothing the IR keeps (mosaic graphics are not read).
//   - 0x80/0x81 italics and 0x82/0x83 underline on and off (for the whole
//     field) take no position; 0x84/0x85 boxing is ignored.
//   - Characters come from the table cct ([tableLatin] and the ISO 8859
//     tables); in table 00 a diacritical mark goes on the letter after
//     it. A byte the table leaves undefined reads as U+FFFD.
func decodeText(tf []byte, cct string, b *caption.TextBuilder) decoded {
	var d decoded
	b.Reset()
	high := upperHalf(cct)
	var st caption.Span // italics and underline, kept across lines
	var line []cellRun
	fg, bg := "", ""
	space := false // a control code asked for a space before the next character
	styled := func() caption.Span {
		s := st
		s.Color, s.Background = fg, bg
		return s
	}
	put := func(r rune) {
		if space && len(line) > 0 && line[len(line)-1].r != ' ' {
			line = append(line, cellRun{' ', caption.Span{}})
		}
		space = false
		line = append(line, cellRun{r, styled()})
	}
	endLine := func() {
		i, j := 0, len(line)
		for i < j && line[i].r == ' ' {
			i++
		}
		for j > i && line[j-1].r == ' ' {
			j--
		}
		if i < j {
			if d.lines > 0 {
				b.Write("\n", caption.Span{})
			}
			d.lines++
			var buf [utf8.UTFMax]byte
			for _, c := range line[i:j] {
				n := utf8.EncodeRune(buf[:], c.r)
				b.Write(string(buf[:n]), c.st)
			}
		}
		line, fg, bg, space = line[:0], "", "", false
	}
	for i := 0; i < len(tf); i++ {
		c := tf[i]
		switch {
		case c == crlf:
			endLine()
		case c < 0x08:
			fg, space = teletextColour[c], true
		case c < 0x20:
			switch c {
			case doubleHeight:
				d.double = true
			case blackBG:
				bg = ""
			case newBG:
				// The text colour becomes the background; black is the
				// default box and needs no span.
				switch fg {
				case "":
					bg = "#ffffff"
				case teletextColour[0]:
					bg = ""
				default:
					bg = fg
				}
			}
			if c >= 0x10 && c <= 0x17 {
				d.mosaic = true
			}
			space = true
		case c == italicOn || c == italicOff:
			st.Italic = c == italicOn
		case c == underlineOn || c == underlineOff:
			st.Underline = c == underlineOn
		case c >= 0x80 && c < 0xA0:
			// Boxing (open subtitles) and reserved codes show nothing.
		case c == ' ':
			space = false
			line = append(line, cellRun{' ', styled()})
		case cct == tableLatin || high == nil:
			i += latinChar(tf, i, &d, put)
		case c < 0x7F:
			put(rune(c))
		default:
			r, ok := high(c)
			if !ok {
				r = utf8.RuneError
				d.undefined++
			}
			put(r)
		}
	}
	endLine()
	d.text, d.spans = b.Build()
	return d
}

// latinChar decodes the table 00 character at tf[i], a mark with the
// letter after it or a single byte, and returns how many more bytes it
// took.
func latinChar(tf []byte, i int, d *decoded, put func(rune)) int {
	c := tf[i]
	if !isMark(c) {
		r, ok := latinRune(c)
		if !ok {
			r = utf8.RuneError
			d.undefined++
		}
		put(r)
		return 0
	}
	m := &latinMarks[c-0xC1]
	if i+1 < len(tf) {
		if next := tf[i+1]; next > ' ' && next < 0x7F {
			for _, r := range m.compose(rune(next)) {
				put(r)
			}
			return 1
		}
	}
	// A mark before a space, a control code or nothing is the mark alone.
	put(m.spacing)
	if i+1 < len(tf) && tf[i+1] == ' ' {
		return 1
	}
	return 0
}
