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
	// ownLine: nothing but spaces shares the label's line.
	ownLine bool
	// textAfter: the cue has more text on the lines after the label's.
	textAfter bool
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
		end := i + 2 + j // just past the closer
		lineStart := strings.LastIndexByte(text[:i], '\n') + 1
		lineEnd, after := len(text), ""
		if k := strings.IndexByte(text[end:], '\n'); k >= 0 {
			lineEnd, after = end+k, text[end+k+1:]
		}
		fn(label{
			open: rune(open), content: strings.TrimSpace(text[i+1 : end-1]),
			ownLine:   strings.TrimSpace(text[lineStart:i]) == "" && strings.TrimSpace(text[end:lineEnd]) == "",
			textAfter: strings.TrimSpace(after) != "",
		})
		i = end - 1
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

// labelRole says what a bracketed note stands for.
type labelRole int

const (
	// roleSound: a sound effect or other non-speech description.
	roleSound labelRole = iota
	// roleSpeaker: a speaker ID, DCMP's "(Jack)", "(female #1)", "(male
	// narrator)" or "(as George Washington)".
	roleSpeaker
	// roleEither: a label in parentheses and capitals on a line of its
	// own above speech, "(JACK)" or "(THUNDER)": a speaker ID in capitals
	// or a sound effect, which only a reader can tell.
	roleEither
)

// roleOf classifies a label for every DCMP clause alike, so that the
// consistency and the format clauses count the same labels as sounds.
// A name ([isNameLabel]) or a description of a speaker
// ([isSpeakerDescription]) is a speaker ID in either bracket. A label in
// capitals cannot show a name by its case, so in parentheses, on its own
// line above speech, where DCMP puts speaker IDs, it is either; anywhere
// else, as with every other label, it is a sound.
func roleOf(l label) labelRole {
	switch {
	case isNameLabel(l.content), isSpeakerDescription(l.content):
		return roleSpeaker
	case l.open == '(' && l.ownLine && l.textAfter && caseOf(l.content, 2) == caseUpper && len(strings.Fields(l.content)) <= 3:
		return roleEither
	}
	return roleSound
}

// isSpeakerDescription reports whether a label identifies an unnamed or
// portrayed speaker the way DCMP's Captioning Key does: "female #1",
// "male narrator", "woman on phone", "as George Washington". Its words,
// in any case, are person words and numbers, optionally followed by where
// the voice comes from ("on phone"); a label of other words ("man
// screams") describes a sound.
func isSpeakerDescription(content string) bool {
	words := strings.Fields(strings.ToLower(content))
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	if words[0] == "as" {
		return len(words) > 1
	}
	person := false
	for k, w := range words {
		switch {
		case speakerWord(w):
			person = true
		case strings.HasPrefix(w, "#") || unicode.IsDigit(rune(w[0])):
			// "#1", "2"
		case person && k < len(words)-1 && (w == "on" || w == "over" || w == "via"):
			// "on phone", "over radio": the rest says where.
			return true
		default:
			return false
		}
	}
	return person
}

// speakerWord reports whether w is a word of DCMP-style speaker
// descriptions: a person or what tells one person from another ("female
// #1", "young man").
func speakerWord(w string) bool {
	switch w {
	case "man", "woman", "men", "women", "boy", "girl", "boys", "girls",
		"child", "children", "kid", "kids", "person", "people",
		"narrator", "announcer", "reporter", "speaker", "host", "anchor",
		"interviewer", "interviewee", "caller", "voice", "voices",
		"male", "female", "young", "old", "older", "elderly":
		return true
	}
	return false
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
// opposed to subtitles: a bracketed label, a music note or a "#" standing
// for one, a speaker label or a ">>" speaker change.
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
		found = strings.HasPrefix(line, ">>") || speakerPrefix(line) > 0 || hashOpens(line) || hashCloses(line)
	}
	return found
}
