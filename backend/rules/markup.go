package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// InvalidMarkup reports markup a reader left in cue text, which a viewer
// would see as it is:
//
//   - a tag of the caption formats or of HTML that survived as text,
//     opening or closing: i, b, u, s, c, v, lang, ruby, rt, font, span, br
//     and p, with classes or attributes ("</i>", "<c.yellow>",
//     "<font color=...>"), up to a ">" on the same line;
//   - an ASS override block opener "{\" (for example "{\an8}").
//
// Text such as "a < b" or "<3" is not markup and passes, and so does
// "-->". IR text is what the viewer reads, and an arrow in it is text: it
// is each writer's job to keep it from reading as a timing line, and each
// does (WebVTT writes "--&gt;"; SRT writes "-->" as it is, but "--›" on a
// line that would read as a timing line, which the delivery reports as a
// change; TTML and the IR have no timing syntax in text). Reporting it
// here would hold back every delivery of such text, however it was
// written. A source file in which an arrow did break a cue is malformed,
// and its reader reports that. One finding per cue, for the first problem
// in the order above. The reader's own invalid_markup
// diagnostics (tags it could not parse) become findings through
// [ReaderCode].
type InvalidMarkup struct{}

// Code returns "invalid_markup".
func (InvalidMarkup) Code() string { return CodeInvalidMarkup }

// Unit returns "": the rule has no threshold.
func (InvalidMarkup) Unit() string { return "" }

// Check reports each cue whose text holds leftover markup.
func (InvalidMarkup) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		if msg := markupProblem(t.Cues[i].Text); msg != "" {
			out = append(out, finding(CodeInvalidMarkup, t, i, msg))
		}
	}
	return out
}

// markupProblem describes the first markup problem of text, "" if none.
func markupProblem(text string) string {
	// strings.IndexByte is vectorised; most cues hold neither byte and
	// are done after two scans.
	for i := strings.IndexByte(text, '<'); i >= 0; {
		if n := tagLen(text[i:]); n > 0 {
			return fmt.Sprintf("text contains the tag %q, markup the reader did not remove", clip(text[i:i+n]))
		}
		next := strings.IndexByte(text[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if i := strings.Index(text, "{\\"); i >= 0 {
		end := strings.IndexAny(text[i:], "}\n")
		if end < 0 || text[i+end] == '\n' {
			end = len(text) - i
		} else {
			end++
		}
		return fmt.Sprintf("text contains the ASS override %q, markup the reader did not remove", clip(text[i:i+end]))
	}
	return ""
}

// tagLen returns the length of the tag s starts with, 0 when s does not
// start with one of the tags [InvalidMarkup] knows.
func tagLen(s string) int {
	j := 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	start := j
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	if !knownTag(s[start:j]) || j >= len(s) {
		return 0
	}
	switch s[j] {
	case '>':
		return j + 1
	case '.', ' ', '\t', '/':
		// Classes, a voice name or attributes: the tag runs to the next
		// ">" on the same line, which a stray "<b" in prose rarely has.
		if end := strings.IndexAny(s[j:], ">\n"); end >= 0 && s[j+end] == '>' {
			return j + end + 1
		}
	}
	return 0
}

// knownTag reports whether name (any case) is a tag of WebVTT, SRT, TTML
// or the HTML subset caption files use.
func knownTag(name string) bool {
	if len(name) == 0 || len(name) > 4 {
		return false
	}
	var b [4]byte
	for k := 0; k < len(name); k++ {
		b[k] = name[k] | 0x20
	}
	switch string(b[:len(name)]) {
	case "i", "b", "u", "s", "c", "v", "lang", "ruby", "rt", "font", "span", "br", "p":
		return true
	}
	return false
}

func isASCIILetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }

// clip shortens quoted source text for a message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	k := 37
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "..."
}
