package cli

import (
	"strings"
	"unicode"

	"github.com/rivo/uniseg"
)

// What a terminal shows is measured in columns, not bytes or runes: a
// Japanese character takes two, an accent combined with its letter none.
// These helpers cut and pad by grapheme cluster, so no character is split
// and no line outgrows the width it was given.

// ellipsis marks where text was cut; it is one column wide.
const ellipsis = "…"

// columns returns the width of s in terminal columns.
func columns(s string) int { return uniseg.StringWidth(s) }

// visible returns s fit to print on a terminal: invalid UTF-8 and control
// characters (a newline or an escape in a file name) become U+FFFD, so a
// name can neither break the line nor send the terminal a command.
func visible(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// cutStart returns s when it fits in width columns, else an ellipsis and
// as much of the end of s as fits: the end of a path names the file.
func cutStart(s string, width int) string {
	if columns(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var parts []string
	var widths []int
	for state, rest := -1, s; rest != ""; {
		var c string
		var w int
		c, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		parts, widths = append(parts, c), append(widths, w)
	}
	room, i := width-columns(ellipsis), len(parts)
	for i > 0 && widths[i-1] <= room {
		i--
		room -= widths[i]
	}
	return ellipsis + strings.Join(parts[i:], "")
}

// cutEnd returns s when it fits in width columns, else as much of the
// start of s as fits and an ellipsis.
func cutEnd(s string, width int) string {
	if columns(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	room := width - columns(ellipsis)
	for state, rest := -1, s; rest != ""; {
		var c string
		var w int
		c, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w > room {
			break
		}
		b.WriteString(c)
		room -= w
	}
	// "no cues…", not "no …": a cut ends on a word or a letter.
	return strings.TrimRight(b.String(), " ") + ellipsis
}

// padEnd returns s followed by the spaces that make it width columns wide.
func padEnd(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-columns(s)))
}
