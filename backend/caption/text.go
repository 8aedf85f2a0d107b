package caption

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Encoding names reported in [Source.Encoding].
const (
	EncodingUTF8        = "utf-8"
	EncodingUTF8BOM     = "utf-8-bom"
	EncodingUTF16LE     = "utf-16le"
	EncodingUTF16BE     = "utf-16be"
	EncodingUTF32LE     = "utf-32le"
	EncodingUTF32BE     = "utf-32be"
	EncodingWindows1252 = "windows-1252"
)

// DecodeText turns a caption file's bytes into text. It honours a UTF-8,
// UTF-16 or UTF-32 byte order mark (which it removes), accepts BOM-less
// UTF-8, and decodes anything else as Windows-1252, the usual encoding of
// legacy subtitle files, adding an encoding_not_utf8 diagnostic.
func DecodeText(b []byte) (text, encoding string, diags []Diagnostic) {
	switch {
	// UTF-32 LE must be tested before UTF-16 LE: its BOM starts with FF FE.
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0x00, 0x00}):
		return decodeUTF32(b[4:], binary.LittleEndian), EncodingUTF32LE, nil
	case bytes.HasPrefix(b, []byte{0x00, 0x00, 0xFE, 0xFF}):
		return decodeUTF32(b[4:], binary.BigEndian), EncodingUTF32BE, nil
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		if utf8.Valid(b[3:]) {
			return string(b[3:]), EncodingUTF8BOM, nil
		}
		return strings.ToValidUTF8(string(b[3:]), "\uFFFD"), EncodingUTF8BOM, nil
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return decodeUTF16(b[2:], binary.LittleEndian), EncodingUTF16LE, nil
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return decodeUTF16(b[2:], binary.BigEndian), EncodingUTF16BE, nil
	}
	if order, name, ok := bomlessUTF16(b); ok {
		return decodeUTF16(b, order), name, []Diagnostic{{
			Code: CodeEncodingNotUTF8, Severity: SeverityWarning, Line: 1,
			Message: "the file is " + strings.ToUpper(name) + " without a byte order mark; it was read as such",
		}}
	}
	switch {
	case utf8.Valid(b):
		return string(b), EncodingUTF8, nil
	}
	line := 1 + bytes.Count(b[:firstInvalidUTF8(b)], []byte{'\n'})
	return decodeWindows1252(b), EncodingWindows1252, []Diagnostic{{
		Code: CodeEncodingNotUTF8, Severity: SeverityWarning, Line: line,
		Message: "the file is not UTF-8 and has no byte order mark; it was read as Windows-1252",
	}}
}

// decodeOwned is [DecodeText] for a buffer nobody else holds: valid UTF-8
// without a BOM becomes the string without a copy. The caller must never
// write to b afterwards.
func decodeOwned(b []byte) (text, encoding string, diags []Diagnostic) {
	// A NUL among the first bytes is BOM-less UTF-16, which DecodeText
	// tells apart; caption text has none.
	if len(b) > 0 && b[0] < 0x80 && b[0] != 0 && bytes.IndexByte(b[:min(len(b), utf16Probe)], 0) < 0 && utf8.Valid(b) {
		return unsafe.String(&b[0], len(b)), EncodingUTF8, nil
	}
	return DecodeText(b)
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// utf16Probe is how many leading bytes [bomlessUTF16] looks at.
const utf16Probe = 256

// bomlessUTF16 recognises UTF-16 without a byte order mark, as some
// Windows tools write it. A caption file's structure is ASCII (counters,
// times, "-->", line breaks, a header, tags), which UTF-16 stores as code
// units with a zero high byte; its text need not be: Hebrew, Cyrillic or
// Japanese units have no zero byte, so the share of zero bytes says little.
// The opening bytes are therefore read as UTF-16 in each byte order, and
// one is taken when they are well formed in it (see [plausibleUTF16]) and
// hold enough ASCII units to be a caption file's structure.
//
// No real UTF-8 or Windows-1252 file is taken for UTF-16: it holds no zero
// byte, so read as UTF-16 it has no ASCII unit at all. Nor can both byte
// orders qualify: a unit that is ASCII in both is U+0000, which is refused.
func bomlessUTF16(b []byte) (binary.ByteOrder, string, bool) {
	n := min(len(b), utf16Probe) &^ 1
	if n < 4 {
		return nil, "", false
	}
	cut := n < len(b) // the probe may end inside a surrogate pair
	switch {
	case plausibleUTF16(b[:n], binary.LittleEndian, cut):
		return binary.LittleEndian, EncodingUTF16LE, true
	case plausibleUTF16(b[:n], binary.BigEndian, cut):
		return binary.BigEndian, EncodingUTF16BE, true
	}
	return nil, "", false
}

// minStructure is how many ASCII code units the opening of a BOM-less
// UTF-16 file must hold (all of them, in a shorter file): fewer than an
// SRT or WebVTT timing line has.
const minStructure = 16

// plausibleUTF16 reports whether b (an even number of bytes) reads as
// caption text in UTF-16 of the given byte order: no unpaired surrogate
// (a high one may end b when cut says the file goes on), no NUL, no
// control character but tab, line feed and carriage return, no
// noncharacter U+FFFE or U+FFFF, and at least [minStructure] ASCII units.
func plausibleUTF16(b []byte, order binary.ByteOrder, cut bool) bool {
	units := len(b) / 2
	ascii := 0
	for i := 0; i < units; i++ {
		u := order.Uint16(b[2*i:])
		switch {
		case u == '\t' || u == '\n' || u == '\r':
			ascii++
		case u < 0x20 || u >= 0x7F && u < 0xA0 || u == 0xFFFE || u == 0xFFFF:
			return false
		case u < 0x80:
			ascii++
		case utf16.IsSurrogate(rune(u)):
			if u >= 0xDC00 { // a low surrogate with no high one before it
				return false
			}
			if i+1 == units {
				return cut
			}
			if next := order.Uint16(b[2*i+2:]); next < 0xDC00 || next > 0xDFFF {
				return false
			}
			i++
		}
	}
	return ascii >= min(minStructure, units)
}

func decodeUTF16(b []byte, order binary.ByteOrder) string {
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = order.Uint16(b[2*i:])
	}
	s := string(utf16.Decode(units))
	if len(b)%2 == 1 {
		s += "\uFFFD"
	}
	return s
}

func decodeUTF32(b []byte, order binary.ByteOrder) string {
	var sb strings.Builder
	sb.Grow(len(b) / 4)
	for i := 0; i+4 <= len(b); i += 4 {
		r := rune(order.Uint32(b[i:]))
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		sb.WriteRune(r)
	}
	if len(b)%4 != 0 {
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String()
}

// cp1252 is a read-only table of bytes 0x80-0x9F; the rest of
// Windows-1252 equals Latin-1. The five undefined bytes decode to U+FFFD.
var cp1252 = [32]rune{
	'€', '\uFFFD', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\uFFFD', 'Ž', '\uFFFD',
	'\uFFFD', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\uFFFD', 'ž', 'Ÿ',
}

// Windows1252 decodes one Windows-1252 byte; the five bytes the encoding
// leaves undefined give U+FFFD.
func Windows1252(c byte) rune {
	if c < 0x80 || c >= 0xA0 {
		return rune(c)
	}
	return cp1252[c-0x80]
}

func decodeWindows1252(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		if c < 0x80 {
			sb.WriteByte(c)
		} else {
			sb.WriteRune(Windows1252(c))
		}
	}
	return sb.String()
}

// SplitLines splits text on CRLF, CR or LF, the three line endings caption
// files use. A final line ending does not start an extra empty line.
func SplitLines(text string) []string {
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i])
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
	return lines
}

// splitNewlines splits cue text on "\n" only: IR text uses no other break.
func splitNewlines(s string) []string { return strings.Split(s, "\n") }
