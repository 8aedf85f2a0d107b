package srt

import "strings"

// tagKind is what a known tag does.
type tagKind uint8

const (
	tagRemoved tagKind = iota + 1 // known markup without an IR equivalent
	tagItalic
	tagBold
	tagUnderline
	tagFont
	tagBreak
)

// tagKinds is a read-only table of the tag names the reader knows, lower case. Names of
// WebVTT class tags ("c.yellow") are looked up before the first dot.
var tagKinds = map[string]tagKind{
	"i": tagItalic, "em": tagItalic, "italic": tagItalic,
	"b": tagBold, "strong": tagBold, "bold": tagBold,
	"u": tagUnderline, "ins": tagUnderline, "underline": tagUnderline,
	"font": tagFont, "br": tagBreak,
	"s": tagRemoved, "strike": tagRemoved, "del": tagRemoved, "span": tagRemoved, "c": tagRemoved,
	"v": tagRemoved, "lang": tagRemoved, "ruby": tagRemoved, "rt": tagRemoved, "p": tagRemoved,
	"div": tagRemoved, "sub": tagRemoved, "sup": tagRemoved, "small": tagRemoved, "big": tagRemoved,
}

// lookupTag returns the kind of a tag name, ignoring case and any class.
func lookupTag(name string) tagKind {
	if len(name) == 1 {
		// The common tags skip the map.
		switch name[0] | 0x20 {
		case 'i':
			return tagItalic
		case 'b':
			return tagBold
		case 'u':
			return tagUnderline
		}
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	var lower [16]byte
	if len(name) > len(lower) {
		return 0
	}
	b := lower[:len(name)]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return tagKinds[string(b)]
}

// tagInfo is one well-formed HTML-style tag.
type tagInfo struct {
	n         int // length in bytes; 0 when there is no tag
	name      string
	closing   bool
	color     string
	hasColor  bool
	otherAttr bool // an attribute other than color
}

// scanTag reads the tag at the start of s without applying it.
func scanTag(s string) (t tagInfo) {
	i := 1
	t.closing = i < len(s) && s[i] == '/'
	if t.closing {
		i++
	}
	ns := i
	if i >= len(s) || !isLetter(s[i]) {
		return tagInfo{}
	}
	for i < len(s) && isNameChar(s[i]) {
		i++
	}
	t.name = s[ns:i]
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return tagInfo{}
		}
		if s[i] == '>' {
			t.n = i + 1
			return t
		}
		if s[i] == '/' && i+1 < len(s) && s[i+1] == '>' {
			t.n = i + 2
			return t
		}
		if !isLetter(s[i]) {
			return tagInfo{}
		}
		as := i
		for i < len(s) && isNameChar(s[i]) {
			i++
		}
		attr := s[as:i]
		var val string
		if i = skipSpace(s, i); i < len(s) && s[i] == '=' {
			if i = skipSpace(s, i+1); i >= len(s) {
				return tagInfo{}
			}
			if q := s[i]; q == '"' || q == '\'' {
				k := strings.IndexByte(s[i+1:], q)
				if k < 0 {
					return tagInfo{}
				}
				val, i = s[i+1:i+1+k], i+k+2
			} else {
				vs := i
				for i < len(s) && !isSpace(s[i]) && strings.IndexByte("<>\"'=`", s[i]) < 0 {
					i++
				}
				if i == vs {
					return tagInfo{}
				}
				val = s[vs:i]
			}
		}
		if strings.EqualFold(attr, "color") {
			t.color, t.hasColor = val, true
		} else {
			t.otherAttr = true
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isNameChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '.' || c == '-' || c == '_' || c == ':'
}
