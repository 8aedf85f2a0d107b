package standard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// label is a bracketed note in cue text: "[door slams]" or "(Jack)".
type label struct {
	open    rune // '[' or '('
	content string
}

// labels returns the bracketed notes of text, left to right. An opening
// bracket without its closing one on the same line is not a label.
func labels(text string) []label {
	var out []label
	eachLabel(text, func(l label) { out = append(out, l) })
	return out
}

// eachLabel calls fn for each bracketed note of text without allocating;
// graders call it once per cue of files with tens of thousands of cues.
func eachLabel(text string, fn func(label)) {
	if strings.IndexByte(text, '[') < 0 && strings.IndexByte(text, '(') < 0 {
		return
	}
	for i := 0; i < len(text); i++ {
		open := text[i]
		if open != '[' && open != '(' {
			continue
		}
		closer := byte(']')
		if open == '(' {
			closer = ')'
		}
		j := strings.IndexAny(text[i+1:], string(closer)+"\n")
		if j < 0 || text[i+1+j] != closer {
			continue
		}
		fn(label{open: rune(open), content: strings.TrimSpace(text[i+1 : i+1+j])})
		i += j + 1
	}
}

// nextLine splits text at its first line break: the line and the rest, ok
// false when text is exhausted. It walks lines without allocating.
func nextLine(text string) (line, rest string, more bool) {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i], text[i+1:], true
	}
	return text, "", false
}

// letterCase sorts the letters of s: all capitals, all lower case, or
// mixed; caseNone when s has fewer than minLetters cased letters.
type letterCase int

const (
	caseNone letterCase = iota
	caseUpper
	caseLower
	caseMixed
)

// caseOf returns the [letterCase] of s.
func caseOf(s string, minLetters int) letterCase {
	upper, lower := 0, 0
	for _, r := range s {
		switch {
		case r < 0x80:
			if 'A' <= r && r <= 'Z' {
				upper++
			} else if 'a' <= r && r <= 'z' {
				lower++
			}
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		}
	}
	return caseFrom(upper, lower, minLetters)
}

// caseFrom is the [letterCase] of text with upper capitals and lower
// small letters.
func caseFrom(upper, lower, minLetters int) letterCase {
	switch {
	case upper+lower < minLetters:
		return caseNone
	case lower == 0:
		return caseUpper
	case upper == 0:
		return caseLower
	}
	return caseMixed
}

// isNameLabel reports whether a label reads like a speaker name, "(Jack)"
// or "(Mary Smith)": every word starts with a capital and the whole is not
// in capitals. Everything else is treated as a sound or description.
func isNameLabel(content string) bool {
	words := strings.Fields(content)
	if len(words) == 0 || len(words) > 3 || caseOf(content, 2) == caseUpper {
		return false
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '#' {
			return false
		}
	}
	return true
}

// isMusicNote reports whether r is a music symbol used in captions.
func isMusicNote(r rune) bool { return r == '♪' || r == '♫' }

// speakerPrefix returns the length of a leading speaker label such as
// "JAMES: " or "Marta: " on a line, 0 when there is none. A label is one to
// three words before a colon, each starting with a capital.
func speakerPrefix(line string) int {
	i := strings.IndexByte(line, ':')
	if i <= 0 || i > 40 {
		return 0
	}
	words := strings.Fields(line[:i])
	if len(words) == 0 || len(words) > 3 {
		return 0
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return 0
		}
	}
	return i + 1
}

// hasCaptionMarkers reports whether text carries any sign of captions as
// opposed to subtitles: a bracketed label, a music note, a speaker label or
// a ">>" speaker change.
func hasCaptionMarkers(text string) bool {
	if hasMusicNote(text) {
		return true
	}
	found := false
	eachLabel(text, func(label) { found = true })
	for rest, more := text, true; more && !found; {
		var line string
		line, rest, more = nextLine(rest)
		line = strings.TrimSpace(line)
		found = strings.HasPrefix(line, ">>") || speakerPrefix(line) > 0
	}
	return found
}
