package scc

import "unicode"

// SolidBlock is what the writer puts for a visible character that 608
// cannot show and that has no substitute: the solid block, 608's own mark
// for a character a decoder could not read (a parity error), so a viewer
// sees that something is missing rather than a wrong letter.
const SolidBlock = '█'

// latinExtendedA folds U+0100 to U+017F to the letters without their
// accents; "?" marks the four ligatures, which foldLatin spells out.
const latinExtendedA = "AaAaAaCcCcCcCcDd" + "DdEeEeEeEeEeGgGg" + "GgGgHhHhIiIiIiIi" + "Ii??JjKkkLlLlLlL" +
	"lLlNnNnNnnNnOoOo" + "Oo??RrRrRrSsSsSs" + "SsTtTtTtUuUuUuUu" + "UuUuWwYyYZzZzZzs"

// substitutes is a read-only table of the 608 spellings of characters
// 608 does not have but that read the same, or nearly, in other letters:
// ligatures and letters outside 608's Western European set, dashes,
// quotes, ellipses, fractions and currency.
var substitutes = map[rune]string{
	'Æ': "AE", 'æ': "ae", 'Ð': "D", 'ð': "d", 'Þ': "Th", 'þ': "th", 'Ý': "Y", 'ý': "y", 'ÿ': "y", '×': "x",
	'Ĳ': "IJ", 'ĳ': "ij", 'Œ': "OE", 'œ': "oe",
	'‐': "-", '‑': "-", '‒': "-", '–': "-", '―': "—", '─': "—", '−': "-",
	'‚': ",", '‛': "'", '„': "\"", '‟': "\"", '′': "'", '″': "\"", '‹': "<", '›': ">", '´': "'", '`': "'",
	'…': "...", '·': ".", '‣': "•", '¸': ",", '¬': "-", '¯': "-", '¨': "\"",
	'±': "+/-", '¹': "1", '²': "2", '³': "3", '¼': "1/4", '¾': "3/4", 'µ': "u", 'ª': "a", 'º': "o",
	'€': "EUR", '№': "No", '♫': "♪", '♬': "♪",
}

// invisible reports whether r shows nothing (format and control
// characters, joiners, marks of direction, a soft hyphen), so that
// leaving it out changes nothing a viewer sees.
func invisible(r rune) bool {
	switch {
	case r == '\u00AD', r == '\uFEFF', r == '\uFFFE', r == '\uFFFF':
		return true
	case r >= '\u200B' && r <= '\u200F', r >= '\u202A' && r <= '\u202E', r >= '\u2060' && r <= '\u2069':
		return true
	}
	return unicode.IsControl(r) && r != '\t' && r != '\n'
}

// spaceLike reports whether r is drawn as a blank: a tab, or one of the
// spaces of other widths; the writer sends a space.
func spaceLike(r rune) bool {
	return r == '\t' || r != ' ' && unicode.Is(unicode.Zs, r)
}

// foldLatin returns the unaccented spelling of a Latin letter 608 lacks.
func foldLatin(r rune) (string, bool) {
	if s, ok := substitutes[r]; ok {
		return s, true
	}
	if r >= 0x100 && r < 0x180 {
		return latinExtendedA[r-0x100 : r-0x100+1], true
	}
	return "", false
}

// How textOf wrote a character.
const (
	// asItself: 608 has the character.
	asItself = iota
	// asBlank: a space of another width, written as a space, or an
	// invisible character, left out; no viewer sees the difference.
	asBlank
	// asSubstitute: a substitute, or left out (a combining mark, whose
	// base letter stays).
	asSubstitute
)

// textOf maps r to 608 glyphs: its own glyph when 608 has one, else a
// space for a space of another width, nothing for an invisible character
// or a combining mark, a substitute, or the solid block for anything
// else. how says which.
func textOf(r rune, out []glyph) (glyphs []glyph, how int) {
	if g, ok := encodeRune(r); ok {
		return append(out, g), asItself
	}
	switch {
	case spaceLike(r):
		return append(out, glyph{kind: basicGlyph, b: ' ', r: ' '}), asBlank
	case invisible(r):
		return out, asBlank
	case unicode.Is(unicode.Mn, r):
		return out, asSubstitute
	}
	if s, ok := foldLatin(r); ok {
		for _, c := range s {
			if g, ok := encodeRune(c); ok {
				out = append(out, g)
			}
		}
		return out, asSubstitute
	}
	g, _ := encodeRune(SolidBlock)
	return append(out, g), asSubstitute
}
