package rules

import (
	"unicode"
	"unicode/utf8"
)

// IsDash reports whether r is one of the dashes that open a speaker's
// turn in a dialogue cue: the hyphen-minus, the en dash and the em dash.
func IsDash(r rune) bool { return r == '-' || r == '–' || r == '—' }

// DialogueDash returns the byte length of the dialogue dash the word w
// starts with ("-" in "-Hi" or a lone "-"), 0 when it has none. "--" and
// "-5" are not dialogue dashes. The fixes drop such a dash from the start
// of a line when they give each speaker a cue of their own, and EN 301 549
// 7.1.3 grading lets a delivery leave it out, so both read it here.
func DialogueDash(w string) int {
	r, n := utf8.DecodeRuneInString(w)
	if !IsDash(r) {
		return 0
	}
	if n == len(w) {
		return n
	}
	next, _ := utf8.DecodeRuneInString(w[n:])
	if IsDash(next) || unicode.IsDigit(next) {
		return 0
	}
	return n
}
