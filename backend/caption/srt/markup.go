package srt

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// pendingSpace is whitespace held back until more content follows on the
// same line, so that lines never end in spaces left over from markup.
type pendingSpace struct {
	s     string
	style caption.Span
}

// markup turns cue lines with tags, entities or override blocks into text
// and spans. It is reused from cue to cue so that its buffers are too.
type markup struct {
	tb     caption.TextBuilder
	cur    caption.Span // the style in effect
	colors []string     // the <font color> stack
	pend   []pendingSpace
	nl     bool // a line break is due before the next content
	// last is the style of the last content written: a line break takes
	// the styling it shares with the content after it, so a tag opening a
	// line does not reach back over the break ("plain\n<i>ital</i>" keeps
	// it plain) and "<i>a</i>\n<i>b</i>" reads as one italic run, as the
	// whole-line fast path reads it.
	last   caption.Span
	placed bool // the first {\an} has been seen
	area   string
	align  string
}

// build reads the lines of one cue.
func (m *markup) build(src string, lines []lineRef, n *notes) (string, []caption.Span, *caption.Placement) {
	m.tb.Reset()
	m.cur, m.colors, m.nl = caption.Span{}, m.colors[:0], false
	m.placed, m.area, m.align = false, "", ""
	for li, l := range lines {
		if li > 0 && m.tb.Len() > 0 {
			m.nl = true
		}
		m.pend = m.pend[:0]
		s := src[l.start:l.end]
		run := 0
		closeAt := -1 // offset of the next '}' at or after i, -1 if none
		if hasBrace := strings.IndexByte(s, '}'); hasBrace >= 0 {
			closeAt = hasBrace
		}
		for i := 0; i < len(s); {
			c := s[i]
			if c != '<' && c != '{' && c != '&' {
				i++
				continue
			}
			m.text(s[run:i])
			run = i
			k := 0
			switch c {
			case '<':
				k = m.tag(s[i:], l.no, n)
			case '{':
				if closeAt >= 0 && closeAt < i {
					closeAt = nextIndex(s, i, '}')
				}
				k = m.brace(s[i:], relative(closeAt, i), l.no, n)
			case '&':
				var dec string
				if dec, k = entity(s[i:]); k > 0 {
					m.text(dec)
				}
			}
			if k == 0 {
				i++
				continue
			}
			i += k
			run = i
		}
		m.text(s[run:])
	}
	text, spans := m.tb.Build()
	var pl *caption.Placement
	if m.area != "" || m.align != "" {
		pl = &caption.Placement{Area: m.area, Align: m.align}
	}
	return text, spans, pl
}

// text writes t in the current style; trailing whitespace waits in pend.
func (m *markup) text(t string) {
	if t == "" {
		return
	}
	body := trimRightSpace(t)
	if body == "" {
		m.pend = append(m.pend, pendingSpace{t, m.cur})
		return
	}
	if m.nl {
		m.tb.Write("\n", shared(m.last, m.cur))
		m.nl = false
	}
	for _, p := range m.pend {
		m.tb.Write(p.s, p.style)
	}
	m.pend = m.pend[:0]
	m.tb.Write(body, m.cur)
	m.last = m.cur
	if len(body) < len(t) {
		m.pend = append(m.pend, pendingSpace{t[len(body):], m.cur})
	}
}

// shared is the styling a and b have in common.
func shared(a, b caption.Span) caption.Span {
	keep := func(x, y string) string {
		if x == y {
			return x
		}
		return ""
	}
	return caption.Span{
		Italic: a.Italic && b.Italic, Bold: a.Bold && b.Bold, Underline: a.Underline && b.Underline,
		Color: keep(a.Color, b.Color), Background: keep(a.Background, b.Background),
		Class: keep(a.Class, b.Class), Lang: keep(a.Lang, b.Lang), Voice: keep(a.Voice, b.Voice),
	}
}

// tag reads an HTML-style tag at the start of s (which starts with '<') and
// applies it. It returns the tag's length, or 0 when s does not start with
// a well-formed known tag; such text stays in the cue as written.
func (m *markup) tag(s string, line int, n *notes) int {
	t := scanTag(s)
	if t.n == 0 {
		return 0
	}
	kind := lookupTag(t.name)
	if kind == 0 {
		if !n.repeat(noteUnknownTag) {
			n.add(noteUnknownTag, caption.CodeInvalidMarkup, caption.SeverityInfo, line,
				"\""+s[:t.n]+"\" is not a known tag and was kept as text")
		}
		return 0
	}
	m.apply(kind, t, line, n)
	return t.n
}

// apply changes the current style for one known tag.
func (m *markup) apply(kind tagKind, t tagInfo, line int, n *notes) {
	closing := t.closing
	switch kind {
	case tagItalic:
		m.cur.Italic = !closing
	case tagBold:
		m.cur.Bold = !closing
	case tagUnderline:
		m.cur.Underline = !closing
	case tagBreak:
		m.pend = m.pend[:0]
		m.nl = m.tb.Len() > 0
	case tagFont:
		m.font(t, line, n)
	case tagRemoved:
		if !n.repeat(noteUnsupportedTag) {
			n.add(noteUnsupportedTag, caption.CodeInvalidMarkup, caption.SeverityInfo, line,
				"tag <"+t.name+"> has no caption equivalent; it was removed and its text kept")
		}
	}
}

// font opens or closes a <font> element; colours nest.
func (m *markup) font(t tagInfo, line int, n *notes) {
	if t.closing {
		if k := len(m.colors); k > 0 {
			m.colors = m.colors[:k-1]
		}
		m.cur.Color = ""
		if k := len(m.colors); k > 0 {
			m.cur.Color = m.colors[k-1]
		}
		return
	}
	if t.otherAttr {
		n.add(noteFontAttr, caption.CodeUnsupportedFeature, caption.SeverityInfo, line,
			"<font> attributes other than color (face, size) are not kept")
	}
	if t.hasColor {
		if c, ok := parseColor(t.color); ok {
			m.cur.Color = c
		} else if !n.repeat(noteBadColor) {
			n.add(noteBadColor, caption.CodeInvalidMarkup, caption.SeverityInfo, line,
				"font colour \""+t.color+"\" is not a colour name or #hex value and was ignored")
		}
	}
	m.colors = append(m.colors, m.cur.Color)
}

// parseColor reads a CSS colour name or a hex colour (with or without "#",
// 3, 6 or 8 digits) as "#rrggbb" or "#rrggbbaa".
func parseColor(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if c, ok := namedColors[s]; ok {
		return c, true
	}
	h := strings.TrimPrefix(s, "#")
	for i := 0; i < len(h); i++ {
		if !isDigit(h[i]) && (h[i] < 'a' || h[i] > 'f') {
			return "", false
		}
	}
	switch len(h) {
	case 3:
		return string([]byte{'#', h[0], h[0], h[1], h[1], h[2], h[2]}), true
	case 6, 8:
		return "#" + h, true
	}
	return "", false
}

// nextIndex returns the index of the first c in s at or after from, or -1.
func nextIndex(s string, from int, c byte) int {
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// relative turns an index in a line into one in the line's suffix at from.
func relative(at, from int) int {
	if at < 0 {
		return -1
	}
	return at - from
}
