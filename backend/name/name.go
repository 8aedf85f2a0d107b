// Package name checks the names people give to stored things (API keys
// now, projects and export templates later) and makes stored text safe to
// print on a terminal.
//
// A name may hold any printable text, in any script, but no character
// that changes how the text around it is shown: control characters (a NUL,
// an ESC that starts a terminal escape sequence, a newline that forges a
// table row), bidirectional controls (U+202E shows "key‮txt.exe" as
// "keyexe.txt") and the other invisible format characters (zero-width
// spaces, tag characters) with which two different names look alike.
// [Check] refuses such a name when it is stored; [Escape] shows the ones
// stored before the check existed as visible escapes.
//
// It imports the standard library and apperr only.
package name

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Check trims s and returns it if it is a name of 1 to max characters
// (runes) holding no [Unsafe] character and no invalid UTF-8. Otherwise it
// returns [apperr.BadRequest] with details "field" (field, as the caller
// names it) and "reason": "required", "too_long" (with "maxLength"),
// "invalid_utf8", or "unsafe_character" (with "codePoint", such as
// "U+202E", and "position", the 1-based character index in the trimmed
// name). The message names the problem but never repeats the name.
func Check(field, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", bad(field, "required", "%s is required", field)
	}
	if !utf8.ValidString(s) {
		return "", bad(field, "invalid_utf8", "%s is not valid UTF-8 text", field)
	}
	pos := 0
	for _, r := range s {
		pos++
		if Unsafe(r) {
			return "", bad(field, "unsafe_character",
				"%s holds the invisible or control character %U (character %d); names may hold no control, bidirectional or format characters",
				field, r, pos).
				WithDetail("codePoint", fmt.Sprintf("%U", r)).WithDetail("position", pos)
		}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", bad(field, "too_long", "%s is longer than %d characters", field, max).WithDetail("maxLength", max)
	}
	return s, nil
}

// Unsafe reports whether r may not appear in a name: a control character
// (category Cc: C0, DEL and C1), a line or paragraph separator (U+2028,
// U+2029), or a format character (category Cf), which takes in every
// bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066
// to U+2069), the zero-width space, the word joiner, the soft hyphen, the
// byte order mark and the tag characters. The zero-width non-joiner and
// joiner (U+200C, U+200D) stay allowed: Persian and Indic spelling and
// emoji sequences need them.
func Unsafe(r rune) bool {
	switch {
	case r == '\u200c' || r == '\u200d':
		return false
	case r == '\u2028' || r == '\u2029':
		return true
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r)
}

func bad(field, reason, format string, args ...any) *apperr.Error {
	return apperr.New(apperr.BadRequest, format, args...).WithDetail("field", field).WithDetail("reason", reason)
}
