package stl

import "unicode/utf8"

// Character code table 00, Latin: ISO/IEC 6937, as EBU Tech 3264 appendix
// 2 gives it. Bytes 0x20-0x7E are ASCII. 0xC1-0xCF are non-spacing
// diacritical marks: each is sent before the letter it goes on, so the
// two bytes make one character. The tables are read-only.

// latinHigh is a read-only table of 0xA0-0xFF; 0 marks a byte the table
// leaves undefined, and the diacritical marks 0xC1-0xCF, which latinMarks
// describes.
var latinHigh = [96]rune{
	// 0xA0
	'\u00A0', '¡', '¢', '£', '$', '¥', '#', '§', '¤', '‘', '“', '«', '←', '↑', '→', '↓',
	// 0xB0
	'°', '±', '²', '³', '×', 'µ', '¶', '·', '÷', '’', '”', '»', '¼', '½', '¾', '¿',
	// 0xC0: diacritical marks
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	// 0xD0
	'—', '¹', '®', '©', '™', '♪', '¬', '¦', 0, 0, 0, 0, '⅛', '⅜', '⅝', '⅞',
	// 0xE0
	'Ω', 'Æ', 'Đ', 'ª', 'Ħ', 0, 'Ĳ', 'Ŀ', 'Ł', 'Ø', 'Œ', 'º', 'Þ', 'Ŧ', 'Ŋ', 'ŉ',
	// 0xF0
	'ĸ', 'æ', 'đ', 'ð', 'ħ', 'ı', 'ĳ', 'ŀ', 'ł', 'ø', 'œ', 'ß', 'þ', 'ŧ', 'ŋ', '\u00AD',
}

// mark is a non-spacing diacritical mark of table 00.
type mark struct {
	// combining is the Unicode combining mark, for a letter that has no
	// precomposed form; spacing is the mark alone, before a space.
	combining, spacing rune
	// letters lists base letter and precomposed letter, in pairs.
	letters string
}

// latinMarks is a read-only table of 0xC1-0xCF. 0xC9 is the umlaut of the
// older T.61 table, read as the diaeresis; 0xCC, undefined in ISO 6937,
// is the non-spacing underline of T.61.
var latinMarks = [15]mark{
	{'\u0300', '`', "AÀEÈIÌOÒUÙaàeèiìoòuù"},
	{'\u0301', '´', "AÁCĆEÉIÍLĹNŃOÓRŔSŚUÚYÝZŹaácćeégģiílĺnńoórŕsśuúyýzź"},
	{'\u0302', '^', "AÂCĈEÊGĜHĤIÎJĴOÔSŜUÛWŴYŶaâcĉeêgĝhĥiîjĵoôsŝuûwŵyŷ"},
	{'\u0303', '~', "AÃIĨNÑOÕUŨaãiĩnñoõuũ"},
	{'\u0304', '¯', "AĀEĒIĪOŌUŪaāeēiīoōuū"},
	{'\u0306', '˘', "AĂGĞUŬaăgğuŭ"},
	{'\u0307', '˙', "CĊEĖGĠIİZŻcċeėgġzż"},
	{'\u0308', '¨', "AÄEËIÏOÖUÜYŸaäeëiïoöuüyÿ"},
	{'\u0308', '¨', "AÄEËIÏOÖUÜYŸaäeëiïoöuüyÿ"},
	{'\u030A', '˚', "AÅUŮaåuů"},
	{'\u0327', '¸', "CÇGĢKĶLĻNŅRŖSŞTŢcçgģkķlļnņrŗsştţ"},
	{'\u0332', '_', ""},
	{'\u030B', '˝', "OŐUŰoőuű"},
	{'\u0328', '˛', "AĄEĘIĮUŲaąeęiįuų"},
	{'\u030C', 'ˇ', "CČDĎEĚLĽNŇRŘSŠTŤZŽcčdďeělľnňrřsštťzž"},
}

// isMark reports whether b is a diacritical mark of table 00.
func isMark(b byte) bool { return b >= 0xC1 && b <= 0xCF }

// compose returns mark m put on letter base: the precomposed letter, or
// the letter and the combining mark when there is none.
func (m *mark) compose(base rune) string {
	// The letters are pairs of runes; walk them without a copy.
	rest := m.letters
	for rest != "" {
		b, n := utf8.DecodeRuneInString(rest)
		_, k := utf8.DecodeRuneInString(rest[n:])
		if b == base {
			return rest[n : n+k]
		}
		rest = rest[n+k:]
	}
	return string([]rune{base, m.combining})
}

// latinRune returns the character of a single byte of table 00 (not a
// mark), false when the table leaves it undefined.
func latinRune(b byte) (rune, bool) {
	switch {
	case b >= 0x20 && b < 0x7F:
		return rune(b), true
	case b >= 0xA0:
		r := latinHigh[b-0xA0]
		return r, r != 0
	}
	return 0, false
}
