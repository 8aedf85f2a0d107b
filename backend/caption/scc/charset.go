package scc

// The CEA-608 character sets, as tables indexed by the second byte of a
// code (parity removed). They are read-only.

// basicRune returns the character of a byte of the standard set (0x20 to
// 0x7F). It is ASCII but for ten code points, which 608 gives to accented
// letters and symbols Spanish and French captions need.
func basicRune(c byte) rune {
	switch c {
	case 0x2A:
		return 'á'
	case 0x5C:
		return 'é'
	case 0x5E:
		return 'í'
	case 0x5F:
		return 'ó'
	case 0x60:
		return 'ú'
	case 0x7B:
		return 'ç'
	case 0x7C:
		return '÷'
	case 0x7D:
		return 'Ñ'
	case 0x7E:
		return 'ñ'
	case 0x7F:
		return '█'
	}
	return rune(c)
}

// special is a read-only table of the special character set: codes 0x11
// 0x30 to 0x11 0x3F. A special character takes the next column, like a
// standard one. 0x39 is the transparent space, which shows the video
// through; it reads as a space.
var special = [16]rune{'®', '°', '½', '¿', '™', '¢', '£', '♪', 'à', ' ', 'è', 'â', 'ê', 'î', 'ô', 'û'}

// extended is a read-only table of the extended Western European
// characters: codes 0x12 0x20 to 0x12 0x3F (Spanish, French and
// miscellaneous), then 0x13 0x20 to 0x13 0x3F (Portuguese, German and
// Danish). An encoder sends a
// standard character before each, for decoders that lack them; a decoder
// that has them backspaces over it. 0x12 0x2A is drawn as a horizontal
// bar; it is the em dash of the text.
var extended = [2][32]rune{
	{'Á', 'É', 'Ó', 'Ú', 'Ü', 'ü', '‘', '¡', '*', '’', '—', '©', '℠', '•', '“', '”',
		'À', 'Â', 'Ç', 'È', 'Ê', 'Ë', 'ë', 'Î', 'Ï', 'ï', 'Ô', 'Ù', 'ù', 'Û', '«', '»'},
	{'Ã', 'ã', 'Í', 'Ì', 'ì', 'Ò', 'ò', 'Õ', 'õ', '{', '}', '\\', '^', '_', '¦', '~',
		'Ä', 'ä', 'Ö', 'ö', 'ß', '¥', '¤', '|', 'Å', 'å', 'Ø', 'ø', '┌', '┐', '└', '┘'},
}

// extendedFallback is a read-only table of the standard character the
// writer sends before each extended one: the letter without its accent,
// or the nearest symbol.
var extendedFallback = [2]string{
	`AEOUUu'!.'-cs.""AACEEEeIIiOUuU""`,
	`AaIIiOoOo()/ - -AaOosY  AaOo++++`,
}

// glyphKind says how a 608 character is sent.
type glyphKind uint8

const (
	// basicGlyph is one byte of the standard set; two share a pair.
	basicGlyph glyphKind = iota
	// specialGlyph is a pair 0x11 0x30-0x3F, sent twice.
	specialGlyph
	// extendedGlyph is a fallback byte, then a pair 0x12 or 0x13
	// 0x20-0x3F, sent twice.
	extendedGlyph
)

// glyph is one column of 608 text: how to send it, and what it reads as.
type glyph struct {
	kind glyphKind
	// b is the byte of a basic glyph, or the second byte of a special or
	// extended one; set is 0 or 1 for an extended glyph's first byte
	// (0x12 or 0x13), and fallback its standard character.
	b, set, fallback byte
	r                rune
}

// encodeRune returns the 608 glyph of r, false when 608 has none.
func encodeRune(r rune) (glyph, bool) {
	if r >= 0x20 && r < 0x7F && basicRune(byte(r)) == r {
		return glyph{kind: basicGlyph, b: byte(r), r: r}, true
	}
	if r < 0x80 {
		// * \ ^ _ ` { | } ~: their codes are accented letters in 608.
		return extendedGlyphOf(r)
	}
	for c := byte(0x20); c <= 0x7F; c++ {
		if basicRune(c) == r {
			return glyph{kind: basicGlyph, b: c, r: r}, true
		}
	}
	for i, s := range special {
		if s == r {
			return glyph{kind: specialGlyph, b: 0x30 + byte(i), r: r}, true
		}
	}
	return extendedGlyphOf(r)
}

// extendedGlyphOf returns the extended glyph of r, false when there is none.
func extendedGlyphOf(r rune) (glyph, bool) {
	for set := range extended {
		for i, e := range extended[set] {
			if e == r {
				return glyph{kind: extendedGlyph, b: 0x20 + byte(i), set: byte(set), fallback: extendedFallback[set][i], r: r}, true
			}
		}
	}
	return glyph{}, false
}
