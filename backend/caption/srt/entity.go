package srt

import "strings"

// entity decodes an HTML character reference at the start of s (which
// starts with '&'): the named ones SRT files use and numeric ones. It
// returns the decoded text and the reference's length, or 0 when s does not
// start with one; such an '&' stays in the text.
func entity(s string) (string, int) {
	// The longest reference is "&#x10FFFF;": looking no further keeps long
	// lines of '&' linear.
	k := strings.IndexByte(s[:min(len(s), 11)], ';')
	if k < 2 || k > 10 {
		return "", 0
	}
	switch body := s[1:k]; body {
	case "amp":
		return "&", k + 1
	case "lt":
		return "<", k + 1
	case "gt":
		return ">", k + 1
	case "quot":
		return "\"", k + 1
	case "apos":
		return "'", k + 1
	case "nbsp":
		return "\u00a0", k + 1
	default:
		if body[0] != '#' || len(body) < 2 {
			return "", 0
		}
		digits, base := body[1:], rune(10)
		if digits[0] == 'x' || digits[0] == 'X' {
			digits, base = digits[1:], 16
		}
		if digits == "" {
			return "", 0
		}
		var r rune
		for i := 0; i < len(digits); i++ {
			d := rune(hexValue(digits[i]))
			if d < 0 || d >= base {
				return "", 0
			}
			if r = r*base + d; r > 0x10FFFF {
				return "", 0
			}
		}
		if r == 0 || (r >= 0xD800 && r <= 0xDFFF) {
			return "", 0
		}
		if r == '\n' || r == '\r' {
			// An SRT cue's lines are the file's lines: a reference cannot
			// start a new one (nor an empty one, which would end the cue).
			return " ", k + 1
		}
		return string(r), k + 1
	}
}

func hexValue(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}
