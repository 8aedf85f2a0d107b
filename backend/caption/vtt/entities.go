package vtt

import (
	"github.com/captionqa/captionqa/backend/caption"

	"html"
	"strings"
)

// refStatus says what charRef found.
type refStatus uint8

const (
	// refNone: no character reference starts here; the "&" is text.
	refNone refStatus = iota
	refOK
	// refUnknown: "&name;" with a name HTML does not define; it is text.
	refUnknown
)

// charRef consumes the HTML character reference that follows an "&", with
// s[i] the character after the "&". It returns the decoded text and the
// index after the reference.
//
// Named references use the full HTML table of the standard library's
// html package, which also applies HTML's rules for legacy names without
// a semicolon ("&amp" is "&", "&notit;" is "¬it;"). Numeric references are
// decoded here, because html.UnescapeString lets huge numbers wrap.
func charRef(s string, i int) (string, int, refStatus) {
	if i >= len(s) {
		return "", i, refNone
	}
	if s[i] == '#' {
		return numericRef(s, i)
	}
	j := i
	for j < len(s) && isAlnum(s[j]) {
		j++
	}
	if j == i {
		return "", i, refNone
	}
	if j < len(s) && s[j] == ';' {
		j++
	}
	name := s[i:j]
	switch name {
	case "amp;":
		return "&", j, refOK
	case "lt;":
		return "<", j, refOK
	case "gt;":
		return ">", j, refOK
	case "nbsp;":
		return "\u00a0", j, refOK
	case "lrm;":
		return "\u200e", j, refOK
	case "rlm;":
		return "\u200f", j, refOK
	}
	ref := s[i-1 : j]
	out := html.UnescapeString(ref)
	if out == ref {
		if strings.HasSuffix(name, ";") {
			return "", i, refUnknown
		}
		return "", i, refNone
	}
	return out, j, refOK
}

// numericRef decodes "&#123;" and "&#x7B;" as HTML does: the semicolon is
// optional, NUL, surrogates and values beyond U+10FFFF become U+FFFD, and
// 0x80-0x9F are read as Windows-1252.
func numericRef(s string, i int) (string, int, refStatus) {
	j := i + 1
	hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
	if hex {
		j++
	}
	start := j
	var v rune
	for ; j < len(s); j++ {
		d, ok := digitValue(s[j], hex)
		if !ok {
			break
		}
		if v <= 0x10FFFF {
			if hex {
				v = v*16 + d
			} else {
				v = v*10 + d
			}
		}
	}
	if j == start {
		return "", i, refNone
	}
	if j < len(s) && s[j] == ';' {
		j++
	}
	switch {
	case v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF):
		v = '\uFFFD'
	case v >= 0x80 && v <= 0x9F:
		// HTML maps these references through Windows-1252, keeping the
		// code point where that encoding leaves a byte undefined.
		if r := caption.Windows1252(byte(v)); r != '\uFFFD' {
			v = r
		}
	}
	return string(v), j, refOK
}

func digitValue(c byte, hex bool) (rune, bool) {
	switch {
	case isDigit(c):
		return rune(c - '0'), true
	case hex && 'a' <= c && c <= 'f':
		return rune(c-'a') + 10, true
	case hex && 'A' <= c && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

func isAlnum(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// decodeRefs appends s to sb with its character references decoded. It
// returns the first unknown "&name;" it met, for a diagnostic.
func decodeRefs(sb *strings.Builder, s string) (unknown string) {
	for {
		k := strings.IndexByte(s, '&')
		if k < 0 {
			sb.WriteString(s)
			return unknown
		}
		sb.WriteString(s[:k])
		out, next, st := charRef(s, k+1)
		switch st {
		case refOK:
			sb.WriteString(out)
			s = s[next:]
			continue
		case refUnknown:
			if unknown == "" {
				end := strings.IndexByte(s[k:], ';')
				unknown = s[k : k+end+1]
			}
		}
		sb.WriteByte('&')
		s = s[k+1:]
	}
}
