package stl

import (
	"strings"
	"sync"
	"unicode"
)

// latinBytes is a read-only table of the bytes table 00 writes each
// character it has as: the inverse of latinRune and latinMarks. ASCII
// comes first, so '$' and '#' are written as 0x24 and 0x23 rather than
// 0xA4 and 0xA6, which read the same; a precomposed letter is its mark
// and the base letter; a spacing mark alone is the mark and a space, as
// the reader reads it. It is built on first use, not at start-up: most
// runs of the program write no STL (docs/development.md, Start-up).
var latinBytes = sync.OnceValue(latinEncoding)

func latinEncoding() map[rune]string {
	enc := map[rune]string{}
	add := func(r rune, s string) {
		if _, ok := enc[r]; !ok {
			enc[r] = s
		}
	}
	for b := 0x20; b < 0x7F; b++ {
		add(rune(b), string(rune(b)))
	}
	for b := 0xA0; b <= 0xFF; b++ {
		if r, ok := latinRune(byte(b)); ok {
			add(r, string([]byte{byte(b)}))
		}
	}
	for i := range latinMarks {
		m := &latinMarks[i]
		mark := byte(0xC1 + i)
		letters := []rune(m.letters)
		for k := 0; k+1 < len(letters); k += 2 {
			add(letters[k+1], string([]byte{mark, byte(letters[k])}))
		}
		add(m.spacing, string([]byte{mark, ' '}))
	}
	return enc
}

// substitutes is a read-only table of what the writer puts for
// characters table 00 lacks that read the same, or nearly, in characters
// it has (each in latinBytes): dashes, quotes, ellipses, currency and
// music notes.
var substitutes = map[rune]string{
	'‐': "-", '‑': "-", '‒': "-", '–': "-", '−': "-", '―': "—", '─': "—",
	'‚': ",", '‛': "'", '„': "\"", '‟': "\"", '′': "'", '″': "\"", '‹': "<", '›': ">",
	'…': "...", '•': "·", '‣': "·", 'Ð': "Đ", '€': "EUR", '№': "No", '♫': "♪", '♬': "♪",
}

// Substitute is what the writer puts for a visible character that table
// 00 cannot write and that has no substitute: a question mark, which a
// viewer sees as a sign that something is missing, never as a wrong
// letter.
const Substitute = "?"

// How encodeRune wrote a character.
const (
	asItself = iota
	// asBlank: a space of another width, written as a space, or an
	// invisible character, left out; no viewer sees the difference.
	asBlank
	// asSubstitute: a substitute, [Substitute], or left out (a combining
	// mark, whose base letter stays).
	asSubstitute
)

// encodeRune returns the table 00 bytes of r, and how it was written.
func encodeRune(r rune) (string, int) {
	if s, ok := latinBytes()[r]; ok && r >= ' ' {
		return s, asItself
	}
	switch {
	case r == '\t' || r != ' ' && unicode.Is(unicode.Zs, r):
		return " ", asBlank
	case invisible(r):
		return "", asBlank
	case unicode.Is(unicode.Mn, r):
		return "", asSubstitute
	}
	if s, ok := substitutes[r]; ok {
		var b strings.Builder
		for _, c := range s {
			b.WriteString(latinBytes()[c])
		}
		return b.String(), asSubstitute
	}
	return Substitute, asSubstitute
}

// invisible reports whether r shows nothing (format and control
// characters, joiners, marks of direction), so that leaving it out
// changes nothing a viewer sees.
func invisible(r rune) bool {
	switch {
	case r == '\uFEFF', r == '\uFFFE', r == '\uFFFF':
		return true
	case r >= '\u200B' && r <= '\u200F', r >= '\u202A' && r <= '\u202E', r >= '\u2060' && r <= '\u2069':
		return true
	}
	return unicode.IsControl(r) && r != '\n'
}

// colourCode returns the teletext alphanumeric colour code of the IR
// colour hex ("#rrggbb", or with an opaque alpha): 0x00-0x07, white
// (0x07) for "". ok is false for a colour teletext lacks.
func colourCode(hex string) (byte, bool) {
	h := strings.ToLower(hex)
	if len(h) == 9 && strings.HasSuffix(h, "ff") {
		h = h[:7]
	}
	if h == "" || h == "#ffffff" {
		return white, true
	}
	for i, c := range teletextColour {
		if c != "" && c == h {
			return byte(i), true
		}
	}
	return white, false
}

// white is the alphanumeric white code, the colour every row starts in.
const white = 0x07

// HasColour reports whether teletext has the IR colour hex: black, red,
// green, yellow, blue, magenta, cyan or white.
func HasColour(hex string) bool {
	_, ok := colourCode(hex)
	return ok
}
