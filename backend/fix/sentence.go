package fix

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/rules"
)

// Boundary classes of the gap after a word, strongest last.
const (
	gapWord     = iota // between two words, nothing more
	gapClause          // after , ; : or a dash
	gapSentence        // after . ? ! … (or 。 ？ ！ ．) that ends a sentence
	gapTurn            // before another speaker's dialogue dash
)

// gapClass classifies the gap between the words left and right of a cue's
// text (right is "" at the end of the text).
func gapClass(left, right string) int {
	core := trimClosers(left)
	if core == "" {
		return gapWord
	}
	// A dash standing alone opens what follows it ("timetable — but never
	// mind"): the clause boundary is before it, not after.
	if rules.DialogueDash(core) == len(core) {
		return gapWord
	}
	if right != "" && rules.DialogueDash(right) == len(right) {
		return gapClause
	}
	last, _ := utf8.DecodeLastRuneInString(core)
	switch last {
	case '.', '?', '!', '…', '。', '？', '！', '．', '｡':
		if last == '.' && isAbbreviation(core) {
			return gapWord
		}
		// A lower-case word after the stop means the sentence goes on
		// ("wait… what", "approx. five"): an unknown abbreviation or a
		// pause, so only a clause boundary.
		if startsLower(right) {
			return gapClause
		}
		return gapSentence
	case ',', ';', ':', '–', '—', '、', '，', '；', '：', '､':
		return gapClause
	}
	return gapWord
}

// trimClosers strips closing quotes and brackets, CJK ones too
// ("。」"), from the end of w. It
// is strings.TrimRight unrolled: a cutset with non-ASCII runes makes that
// slow, and this runs for every gap of every cue that is re-wrapped.
func trimClosers(w string) string {
	for len(w) > 0 {
		r, n := utf8.DecodeLastRuneInString(w)
		switch r {
		case '"', '\'', '”', '’', ')', ']', '»', '›', '」', '』', '）', '］', '】', '〕', '〉', '》', '｣':
			w = w[:len(w)-n]
			continue
		}
		return w
	}
	return w
}

// isAbbreviation reports whether w, ending in ".", is an abbreviation or
// an initial rather than a sentence end: "Mr.", "e.g.", "U.S.", "J.".
// A decimal such as "3.5" never reaches here: it has no space after its
// point.
func isAbbreviation(w string) bool {
	w = strings.TrimLeftFunc(w, isOpener)
	stem := strings.TrimSuffix(w, ".")
	if stem == "" || strings.HasSuffix(stem, ".") {
		return false // "..." is an ellipsis
	}
	// Initials and dotted abbreviations: single letters between dots.
	single := true
	for _, part := range strings.Split(stem, ".") {
		r, n := utf8.DecodeRuneInString(part)
		if n != len(part) || !unicode.IsLetter(r) {
			single = false
			break
		}
	}
	if single {
		return true
	}
	return wordClass(stem)&classAbbrev != 0
}

// startsLower reports whether w begins, after opening quotes, brackets and
// dashes, with a lower-case letter.
func startsLower(w string) bool {
	w = strings.TrimLeftFunc(w, func(r rune) bool { return isOpener(r) || rules.IsDash(r) || r == '¿' || r == '¡' })
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(r)
}

// isOpener reports opening quotes and brackets.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '(', '[', '«', '‹':
		return true
	}
	return false
}
