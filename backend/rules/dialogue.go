package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsDash reports whether r is one of the dashes that open a speaker's
// turn in a dialogue cue: the hyphen-minus, the en dash and the em dash.
func IsDash(r rune) bool { return r == '-' || r == '–' || r == '—' }

// DialogueDash returns the byte length of the dialogue dash the word w
// starts with ("-" in "-Hi" or a lone "-"), 0 when it has none. "--" and
// "-5" are not dialogue dashes. The fixes drop such a dash from the start
// of a line of a dialogue cue ([DashDialogue]) when they give each speaker
// a cue of their own, and EN 301 549 7.1.3 grading lets a delivery leave
// it out, so both read it here.
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

// DashDialogue reports whether text, the text of one cue, is a dialogue
// written with dashes: its first line opens with a dialogue dash
// ([DialogueDash]), as every speaker's line then does ("- Where?\n- Out
// there."). Only in such a cue is a dash opening a later line a speaker's
// turn. A dash that opens a lone later line ("I was going to say\n— but
// never mind") is punctuation, an interruption or an aside of the one
// speaker, and stays text: the fixes neither split there for a speaker
// change nor drop it, and grading does not let a delivery leave it out.
func DashDialogue(text string) bool {
	text = strings.TrimLeftFunc(text, unicode.IsSpace)
	if end := strings.IndexFunc(text, unicode.IsSpace); end >= 0 {
		text = text[:end]
	}
	return DialogueDash(text) > 0
}
