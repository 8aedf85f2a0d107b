package caption

import (
	"bytes"
	"encoding/binary"
	"fmt"
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

// DecodeText turns a caption file's bytes into text (docs/cli.md,
// Formats). It honours a UTF-8, UTF-16 or UTF-32 byte order mark (which
// it removes), accepts BOM-less UTF-8 and UTF-16, and decodes anything
// else as Windows-1252, the usual encoding of legacy subtitle files, with
// one encoding_not_utf8 warning.
//
// No byte is lost: each byte the encoding cannot read becomes one
// character, and each line holding such bytes gets an encoding_not_utf8
// error naming them (up to [maxBadLines] lines, then one that counts the
// rest), so a delivery made from it is never ready. In UTF-8 (after a BOM,
// or without one when the file is UTF-8 but for a few bytes, see
// [mostlyUTF8]) a bad byte is read as Windows-1252; in UTF-16 and UTF-32
// an unpaired surrogate, a unit out of range or a last partial unit is
// read as U+FFFD.
func DecodeText(b []byte) (text, encoding string, diags []Diagnostic) {
	switch {
	// UTF-32 LE must be tested before UTF-16 LE: its BOM starts with FF FE.
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0x00, 0x00}):
		text, diags = decodeUTF32(b[4:], binary.LittleEndian)
		return text, EncodingUTF32LE, diags
	case bytes.HasPrefix(b, []byte{0x00, 0x00, 0xFE, 0xFF}):
		text, diags = decodeUTF32(b[4:], binary.BigEndian)
		return text, EncodingUTF32BE, diags
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		if utf8.Valid(b[3:]) {
			return string(b[3:]), EncodingUTF8BOM, nil
		}
		text, diags = decodeMixedUTF8(b[3:])
		return text, EncodingUTF8BOM, diags
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		text, diags = decodeUTF16(b[2:], binary.LittleEndian)
		return text, EncodingUTF16LE, diags
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		text, diags = decodeUTF16(b[2:], binary.BigEndian)
		return text, EncodingUTF16BE, diags
	}
	if order, name, ok := bomlessUTF16(b); ok {
		text, diags = decodeUTF16(b, order)
		return text, name, append([]Diagnostic{{
			Code: CodeEncodingNotUTF8, Severity: SeverityWarning, Line: 1,
			Message: "the file is " + strings.ToUpper(name) + " without a byte order mark; it was read as such",
		}}, diags...)
	}
	if utf8.Valid(b) {
		return string(b), EncodingUTF8, nil
	}
	if mostlyUTF8(b) {
		text, diags = decodeMixedUTF8(b)
		return text, EncodingUTF8, diags
	}
	return decodeWindows1252(b), EncodingWindows1252, []Diagnostic{{
		Code: CodeEncodingNotUTF8, Severity: SeverityWarning, Line: lineAt(b, firstInvalidUTF8(b)),
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

// mostlyUTF8 reports whether b, which is not valid UTF-8, is UTF-8 with a
// few bad bytes rather than a file in a legacy encoding (docs/cli.md,
// Formats): it holds valid multi-byte sequences, at least as many as bytes
// that are not UTF-8. A Windows-1252 file almost never holds one: its
// accented letters are followed by ASCII or by other letters, never by
// the bytes 0x80-0xBF that continue a UTF-8 sequence (pysrt's
// windows-1252.srt in the test corpus has 1,037 accented bytes and no
// such sequence). A UTF-8 file damaged in a few places keeps its other
// characters, each such a sequence. Reading it whole as Windows-1252
// would turn every "é" into "Ã©".
func mostlyUTF8(b []byte) bool {
	multi, bad := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			bad++
		} else {
			multi++
		}
		i += n
	}
	return multi > 0 && multi >= bad
}

// decodeMixedUTF8 decodes b as UTF-8, reading each byte that is not part
// of a valid sequence as Windows-1252, and reports those bytes line by
// line.
func decodeMixedUTF8(b []byte) (string, []Diagnostic) {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	bad := badUnits{unit: "a byte that is not UTF-8", units: "bytes that are not UTF-8", fate: "read as Windows-1252"}
	var lc lineCounter
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			r = Windows1252(b[i])
			note := fmt.Sprintf("0x%02X as %q", b[i], string(r))
			if r == utf8.RuneError {
				note = fmt.Sprintf("0x%02X (undefined in Windows-1252) as U+FFFD", b[i])
			}
			bad.add(lc.line(), note)
			sb.WriteRune(r)
			i++
			continue
		}
		lc.feed(r)
		sb.Write(b[i : i+n])
		i += n
	}
	return sb.String(), bad.done()
}

// lineAt is the 1-based line of b that the byte at offset at falls on,
// lines ending as [SplitLines] ends them: their ends are ASCII, so any
// encoding that keeps ASCII bytes counts the same.
func lineAt(b []byte, at int) int {
	var lc lineCounter
	for _, c := range b[:at] {
		lc.feed(rune(c))
	}
	return lc.line()
}

// lineCounter numbers lines as [SplitLines] splits them: CRLF, CR or LF
// ends one.
type lineCounter struct {
	breaks int
	cr     bool // the last character was a CR, which a LF completes
}

func (l *lineCounter) feed(r rune) {
	switch {
	case r == '\r':
		l.breaks++
		l.cr = true
	case r == '\n' && l.cr:
		l.cr = false
	case r == '\n':
		l.breaks++
	default:
		l.cr = false
	}
}

// line is the 1-based number of the line the next character is on.
func (l *lineCounter) line() int { return l.breaks + 1 }

// maxBadLines caps how many lines [DecodeText] reports bytes on: a file in
// the wrong encoding can have them on every line, and past the cap one
// diagnostic counts the rest. maxNotes caps the bytes named on one line.
const (
	maxBadLines = 100
	maxNotes    = 4
)

// badUnits collects, line by line, the bytes or code units a decoder could
// not read, and turns them into encoding_not_utf8 errors.
type badUnits struct {
	// unit and units name them, fate says what became of them: "a byte
	// that is not UTF-8 was read as Windows-1252", "bytes that are not
	// UTF-8 were read as Windows-1252".
	unit, units, fate string
	diags             []Diagnostic
	line              int      // the line notes are about; 0 before the first
	notes             []string // the first units of line, each named
	count             int      // units on line, named or not
	// more counts the lines past maxBadLines, the first being from.
	more, from int
}

// add records a unit on line, described by note; lines come in order.
func (u *badUnits) add(line int, note string) {
	if line != u.line {
		u.flush()
		u.line = line
		if len(u.diags) == maxBadLines {
			if u.more == 0 {
				u.from = line
			}
			u.more++
		}
	}
	u.count++
	if len(u.notes) < maxNotes && len(u.diags) < maxBadLines {
		u.notes = append(u.notes, note)
	}
}

// flush writes the diagnostic of the line being collected, if any.
func (u *badUnits) flush() {
	if len(u.notes) > 0 {
		m := u.unit + " was " + u.fate + ": " + u.notes[0]
		if u.count > 1 {
			m = u.units + " were " + u.fate + ": " + strings.Join(u.notes, ", ")
		}
		if u.count > len(u.notes) {
			m += fmt.Sprintf(" and %d more", u.count-len(u.notes))
		}
		u.diags = append(u.diags, Diagnostic{Code: CodeEncodingNotUTF8, Severity: SeverityError, Line: u.line,
			Message: m + "; check the text against the source"})
	}
	u.notes, u.count = u.notes[:0], 0
}

// done returns the diagnostics, nil when no unit was added.
func (u *badUnits) done() []Diagnostic {
	u.flush()
	if u.more > 0 {
		u.diags = append(u.diags, Diagnostic{Code: CodeEncodingNotUTF8, Severity: SeverityError, Line: u.from,
			Message: fmt.Sprintf("%d more lines from this one on hold %s, %s; they are not listed", u.more, u.units, u.fate)})
	}
	return u.diags
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

// decodeUTF16 decodes b as UTF-16 in the given byte order; an unpaired
// surrogate, and half a unit at the end, become U+FFFD and are reported.
func decodeUTF16(b []byte, order binary.ByteOrder) (string, []Diagnostic) {
	var sb strings.Builder
	sb.Grow(len(b) / 2)
	bad := badUnits{unit: "a code unit that is not valid UTF-16", units: "code units that are not valid UTF-16", fate: "read as U+FFFD"}
	var lc lineCounter
	n := len(b) / 2
	for i := 0; i < n; i++ {
		u := order.Uint16(b[2*i:])
		r := rune(u)
		switch {
		case utf16.IsSurrogate(r) && u < 0xDC00 && i+1 < n && isLowSurrogate(order.Uint16(b[2*i+2:])):
			r = utf16.DecodeRune(r, rune(order.Uint16(b[2*i+2:])))
			i++
		case utf16.IsSurrogate(r):
			bad.add(lc.line(), fmt.Sprintf("0x%04X (an unpaired surrogate)", u))
			r = utf8.RuneError
		}
		lc.feed(r)
		sb.WriteRune(r)
	}
	if len(b)%2 == 1 {
		bad.add(lc.line(), fmt.Sprintf("0x%02X (half a code unit, at the end)", b[len(b)-1]))
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String(), bad.done()
}

func isLowSurrogate(u uint16) bool { return u >= 0xDC00 && u <= 0xDFFF }

// decodeUTF32 decodes b as UTF-32 in the given byte order; a unit that is
// no Unicode scalar value, and a partial unit at the end, become U+FFFD
// and are reported.
func decodeUTF32(b []byte, order binary.ByteOrder) (string, []Diagnostic) {
	var sb strings.Builder
	sb.Grow(len(b) / 4)
	bad := badUnits{unit: "a unit that is not valid UTF-32", units: "units that are not valid UTF-32", fate: "read as U+FFFD"}
	var lc lineCounter
	for i := 0; i+4 <= len(b); i += 4 {
		r := rune(order.Uint32(b[i:]))
		if !utf8.ValidRune(r) {
			bad.add(lc.line(), fmt.Sprintf("0x%08X (not a Unicode character)", order.Uint32(b[i:])))
			r = utf8.RuneError
		}
		lc.feed(r)
		sb.WriteRune(r)
	}
	if rest := len(b) % 4; rest != 0 {
		bad.add(lc.line(), fmt.Sprintf("%d bytes at the end, short of a unit", rest))
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String(), bad.done()
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
