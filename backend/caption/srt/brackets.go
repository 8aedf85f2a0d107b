package srt

import (
	"slices"
	"strings"
)

// lookalike returns what [Write] writes for the byte c of text that would
// read as markup ([markupAt]): "‹" (U+2039) and "›" (U+203A, also
// [arrowHead]) for the angle brackets of a tag, "(" and ")" for the
// braces of an override block, as the video pipeline's ASS writer does,
// and "∖" (U+2216) for the backslash of an ASS escape. Each is one code
// point, like the byte it stands for, so spans keep their offsets; none
// is markup to any reader, and each looks like what it stands for, or
// (the parentheses) reads as it does.
func lookalike(c byte) string {
	switch c {
	case '<':
		return "\u2039"
	case '>':
		return arrowHead
	case '{':
		return "("
	case '}':
		return ")"
	}
	return "\u2216"
}

// markupAt sets out to the byte offsets in text, in ascending order, of
// the bytes [Write] writes as look-alikes ([lookalike]): those of text
// that some SRT reader takes for markup and hides, or changes, text
// included. SRT has no escape readers agree on: this package and HTML
// parsers (ttconv's) decode "&lt;", ffmpeg and the players built on it
// show it as it is. What would read as markup in any of them is therefore
// written with look-alikes:
//
//   - the angle brackets of a tag ([tagBrackets]);
//   - the braces of an ASS override block: ffmpeg hands SRT text to the
//     player as ASS, where "{" up to the next "}" is an override block
//     that libass hides ("{laughs}"), and this package reads "{\…}",
//     "{i}" and the like as markup. A "{" without a "}" after it is text
//     to every reader. Braces are paired from the last "{", each with the
//     nearest "}" after it, so that no "{" written as it is has a "}"
//     after it;
//   - the backslash of the ASS escapes \N, \n and \h, which ffmpeg also
//     passes on, and libass shows as a line break or a space.
func markupAt(text string, out []int) []int {
	out = tagBrackets(text, out)
	if strings.IndexByte(text, '{') >= 0 && strings.IndexByte(text, '}') >= 0 {
		var closers []int // the "}" not yet taken, nearest last
		for i := len(text) - 1; i >= 0; i-- {
			switch text[i] {
			case '}':
				closers = append(closers, i)
			case '{':
				if n := len(closers); n > 0 {
					out = append(out, i, closers[n-1])
					closers = closers[:n-1]
				}
			}
		}
	}
	for i := strings.IndexByte(text, '\\'); i >= 0 && i+1 < len(text); {
		if c := text[i+1]; c == 'N' || c == 'n' || c == 'h' {
			out = append(out, i)
		}
		k := strings.IndexByte(text[i+1:], '\\')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	slices.Sort(out)
	return out
}

// tagBrackets sets out to the byte offsets in text of the "<" and ">"
// that [Write] writes as look-alikes: the brackets of text that some SRT
// reader takes for a tag and hides, with the text inside:
//
//   - an HTML start or end tag, a comment or a declaration: "<" followed
//     by a letter, "/", "!" or "?", with a ">" somewhere after it. HTML
//     parsers read such a tag across lines and past a "<" in a quoted
//     value, so a ">" anywhere after is enough. This covers every tag this
//     package reads;
//   - what ffmpeg takes for a tag: "<", then text without "<" up to a ">",
//     whose first word is font, b, i, s, u or br (after any spaces), or,
//     with no space before it, is made of ASCII letters, digits, "_" and
//     "/" only, which includes nothing at all ("<>", "<3>", "<_x>").
//
// A "<" without a ">" after it is no tag for any reader, and is written as
// it is, like a "<" followed by a space and a word that is no tag ("a < b,
// c > d" but not "a < b & c > d", whose "< b" ffmpeg reads as bold). The
// ">" that closes a rewritten "<" is the first one after it that no later
// "<" took, which is the one readers close the tag with.
//
// The brackets are found from the last "<" to the first, each decision
// made on the text as it will be written: a "<" that was left as it is
// stops ffmpeg's scan for an earlier one, one that was rewritten no longer
// does. Deciding from the end means no later rewrite can turn an earlier
// decision into a tag (each rewrite only takes a ">" away from the "<"
// before it). The walk is one pass over the bytes.
func tagBrackets(text string, out []int) []int {
	out = out[:0]
	if strings.IndexByte(text, '<') < 0 || strings.IndexByte(text, '>') < 0 {
		return out // nearly every cue
	}
	var closers []int // the ">" not yet taken, nearest last
	plainOpen := -1   // the nearest "<" after i left as it is
	for i := len(text) - 1; i >= 0; i-- {
		switch text[i] {
		case '>':
			closers = append(closers, i)
			continue
		case '<':
		default:
			continue
		}
		if len(closers) == 0 {
			plainOpen = i
			continue
		}
		k := closers[len(closers)-1]
		if readsAsTag(text[i+1:k], plainOpen < 0 || plainOpen > k) {
			out = append(out, i, k)
			closers = closers[:len(closers)-1]
		} else {
			plainOpen = i
		}
	}
	return out
}

// readsAsTag reports whether "<" followed by inner and ">" reads as a tag
// in some reader ([tagBrackets]). scanned says no "<" stands between, so
// that ffmpeg's scan reaches the ">".
func readsAsTag(inner string, scanned bool) bool {
	if inner != "" {
		if c := inner[0]; isLetter(c) || c == '/' || c == '!' || c == '?' {
			return true
		}
	}
	if !scanned {
		return false
	}
	name := strings.TrimLeft(inner, " ")
	spaced := len(name) < len(inner)
	if sp := strings.IndexByte(name, ' '); sp >= 0 {
		name = name[:sp]
	}
	switch strings.ToLower(name) {
	case "font", "b", "i", "s", "u", "br", "br/":
		return true
	}
	if spaced {
		return false
	}
	for j := 0; j < len(name); j++ {
		if c := name[j]; !isLetter(c) && (c < '0' || c > '9') && c != '_' && c != '/' {
			return false
		}
	}
	return true
}

// RewritesMarkup reports whether [Write] writes text other than as it is
// because part of it would read as markup in some reader ([markupAt]): the
// brackets of a tag are written "‹" and "›" (U+2039, U+203A), the braces
// of an override block "(" and ")", the backslash of an ASS escape "∖"
// (U+2216), and the text reads back with them. [Changes] says so cue by
// cue.
func RewritesMarkup(text string) bool {
	var buf [8]int
	return len(markupAt(text, buf[:0])) > 0
}
