package rules

import (
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// EmptyCue reports cues with nothing visible: text that is empty or holds
// only white space and invisible format characters (zero-width space,
// zero-width joiner, byte order mark, direction marks: Unicode category
// Cf). Such a cue blanks the screen for its duration and, in SRT, can end
// the file early for some players.
type EmptyCue struct{}

// Code returns "empty_cue".
func (EmptyCue) Code() string { return CodeEmptyCue }

// Unit returns "": the rule has no threshold.
func (EmptyCue) Unit() string { return "" }

// Check reports each cue without visible text.
func (EmptyCue) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		if visible(t.Cues[i].Text) {
			continue
		}
		out = append(out, finding(CodeEmptyCue, t, i, "cue has no visible text"))
	}
	return out
}

// visible reports whether text holds a character a viewer would see. It
// stops at the first one, so ordinary cues cost a byte or two.
func visible(text string) bool {
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			if b > ' ' && b != 0x7F {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) && !unicode.IsControl(r) {
			return true
		}
	}
	return false
}
