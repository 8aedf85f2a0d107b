package name

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every [Unsafe] character written as a visible Go
// escape (\t, \n, \r, \x1b for the rest of ASCII and \u202e or \U000e0041
// beyond) and every byte of invalid UTF-8 as \xff, so that printing a
// stored name or email on a terminal cannot move the cursor, recolour the
// screen, reorder the text or hide part of it. Anything else, a backslash
// included, is left as it is: the result is for people to read, not to be
// parsed back. Escape returns s itself when there is nothing to escape.
func Escape(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || Unsafe(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < utf8.RuneSelf && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff && Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}
