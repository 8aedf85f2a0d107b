package srt

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// brace reads a brace tag at the start of s (which starts with '{'): the
// {i} {/i} {b} {/b} {u} {/u} style tags some tools write, or an ASS
// override block {\…}. It returns the tag's length, or 0 when s does not
// start with one; other text in braces stays in the cue.
func (m *markup) brace(s string, closeAt, line int, n *notes) int {
	k, closing, letter := scanBrace(s, closeAt)
	switch letter {
	case '\\':
		m.override(s[1:k-1], line, n)
	case 'i':
		m.cur.Italic = !closing
	case 'b':
		m.cur.Bold = !closing
	case 'u':
		m.cur.Underline = !closing
	}
	return k
}

// scanBrace reads a brace tag without applying it. letter is the lower-case
// style letter, or '\\' for an override block; n is 0 when there is no tag.
// closeAt is the offset in s of the first '}' (or -1), which callers keep
// per line so that lines full of "{\" stay linear.
func scanBrace(s string, closeAt int) (n int, closing bool, letter byte) {
	if len(s) >= 2 && s[1] == '\\' {
		k := closeAt
		if k < 0 {
			return 0, false, 0
		}
		return k + 1, false, '\\'
	}
	closing = len(s) >= 2 && s[1] == '/'
	at := 1
	if closing {
		at = 2
	}
	if len(s) < at+2 || s[at+1] != '}' {
		return 0, false, 0
	}
	switch c := s[at] | 0x20; c {
	case 'i', 'b', 'u':
		return at + 2, closing, c
	}
	return 0, false, 0
}

// override applies the tags of an ASS override block body ("\an8\i1"):
// the position tags \anN and \aN, and \i \b \u. Other tags are dropped.
func (m *markup) override(body string, line int, n *notes) {
	dropped := false
	for _, t := range strings.Split(body, "\\") {
		if t == "" {
			continue
		}
		if pos, ok := numpad(t); ok {
			if !m.placed {
				m.placed = true
				m.area, m.align = positionOf(pos)
			}
			continue
		}
		if len(t) >= 2 && isDigits(t[1:]) {
			on := strings.Trim(t[1:], "0") != ""
			switch t[0] {
			case 'i':
				m.cur.Italic = on
				continue
			case 'b':
				m.cur.Bold = on
				continue
			case 'u':
				m.cur.Underline = on
				continue
			}
		}
		dropped = true
	}
	if dropped && !n.repeat(noteOverride) {
		n.add(noteOverride, caption.CodeUnsupportedFeature, caption.SeverityInfo, line,
			"ASS override tags {\\"+body[min(1, len(body)):]+"} were removed")
	}
}

// numpad reads a position tag: \anN (N is the numeric keypad position,
// 1-9) or the legacy SSA \aN (1-3 bottom, 5-7 top, 9-11 middle; left,
// centre, right), as a keypad position.
func numpad(t string) (int, bool) {
	if len(t) == 3 && t[0] == 'a' && t[1] == 'n' && '1' <= t[2] && t[2] <= '9' {
		return int(t[2] - '0'), true
	}
	if t[0] != 'a' || len(t) < 2 || len(t) > 3 || !isDigits(t[1:]) {
		return 0, false
	}
	v := int(t[1] - '0')
	if len(t) == 3 {
		v = v*10 + int(t[2]-'0')
	}
	switch {
	case v >= 1 && v <= 3:
		return v, true
	case v >= 5 && v <= 7:
		return v + 2, true
	case v >= 9 && v <= 11:
		return v - 5, true
	}
	return 0, false
}

// positionOf maps a keypad position to the IR's area and alignment, leaving
// the defaults (bottom, centre) empty.
func positionOf(pos int) (area, align string) {
	switch (pos - 1) / 3 {
	case 1:
		area = caption.AreaMiddle
	case 2:
		area = caption.AreaTop
	}
	switch (pos - 1) % 3 {
	case 0:
		align = "left"
	case 2:
		align = "right"
	}
	return area, align
}
