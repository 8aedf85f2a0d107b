package stl

// Character code tables 01 to 04: ASCII below 0x80 and the upper half of
// ISO 8859-5 (Cyrillic), -6 (Arabic), -7 (Greek) and -8 (Hebrew), as EBU
// Tech 3264 names them. Each function returns the character of a byte of
// 0xA0-0xFF, false when the part of ISO 8859 leaves it undefined.

// Character code table numbers (the GSI's CCT).
const (
	tableLatin    = "00"
	tableCyrillic = "01"
	tableArabic   = "02"
	tableGreek    = "03"
	tableHebrew   = "04"
)

// tableName names a character code table in messages.
func tableName(cct string) string {
	switch cct {
	case tableLatin:
		return "Latin (ISO 6937)"
	case tableCyrillic:
		return "Latin/Cyrillic (ISO 8859-5)"
	case tableArabic:
		return "Latin/Arabic (ISO 8859-6)"
	case tableGreek:
		return "Latin/Greek (ISO 8859-7)"
	case tableHebrew:
		return "Latin/Hebrew (ISO 8859-8)"
	}
	return "unknown"
}

// upperHalf returns the decoder of the upper half of an ISO 8859 table,
// nil for table 00, whose marks need the byte after them.
func upperHalf(cct string) func(b byte) (rune, bool) {
	switch cct {
	case tableCyrillic:
		return cyrillic
	case tableArabic:
		return arabic
	case tableGreek:
		return greek
	case tableHebrew:
		return hebrew
	}
	return nil
}

func cyrillic(b byte) (rune, bool) {
	switch {
	case b == 0xA0:
		return '\u00A0', true
	case b == 0xAD:
		return '\u00AD', true
	case b == 0xF0:
		return '№', true
	case b == 0xFD:
		return '§', true
	case b >= 0xA1:
		// Ё..Ќ, Ў Џ, А..я, ё..ќ, ў џ follow the bytes one to one.
		return rune(b) - 0xA0 + 0x400, true
	}
	return 0, false
}

func arabic(b byte) (rune, bool) {
	switch {
	case b == 0xA0:
		return '\u00A0', true
	case b == 0xA4:
		return '¤', true
	case b == 0xAC:
		return '،', true
	case b == 0xAD:
		return '\u00AD', true
	case b == 0xBB:
		return '؛', true
	case b == 0xBF:
		return '؟', true
	case b >= 0xC1 && b <= 0xDA, b >= 0xE0 && b <= 0xF2:
		return rune(b) - 0xA0 + 0x600, true
	}
	return 0, false
}

func greek(b byte) (rune, bool) {
	switch b {
	case 0xA0:
		return '\u00A0', true
	case 0xA1:
		return '‘', true
	case 0xA2:
		return '’', true
	case 0xA3, 0xA6, 0xA7, 0xA8, 0xA9, 0xAB, 0xAC, 0xAD, 0xB0, 0xB1, 0xB2, 0xB3, 0xB7, 0xBB, 0xBD:
		return rune(b), true // as in Latin-1
	case 0xAF:
		return '―', true
	case 0xAE, 0xD2, 0xFF, 0xA4, 0xA5, 0xAA:
		return 0, false
	}
	if b >= 0xB4 {
		// ΄ ΅ Ά, then Έ..ώ follow the bytes one to one.
		return rune(b) + 0x384 - 0xB4, true
	}
	return 0, false
}

func hebrew(b byte) (rune, bool) {
	switch {
	case b == 0xA0:
		return '\u00A0', true
	case b == 0xAA:
		return '×', true
	case b == 0xBA:
		return '÷', true
	case b >= 0xA2 && b <= 0xBE:
		return rune(b), true // as in Latin-1
	case b == 0xDF:
		return '‗', true
	case b >= 0xE0 && b <= 0xFA:
		return rune(b) - 0xE0 + 0x5D0, true
	case b == 0xFD:
		return '\u200E', true
	case b == 0xFE:
		return '\u200F', true
	}
	return 0, false
}
