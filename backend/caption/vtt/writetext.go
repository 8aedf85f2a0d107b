package vtt

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// tag is one element the writer opens around cue text.
type tag struct {
	name string // "v", "lang", "c", "i", "b", "u"
	arg  string // voice or language annotation, or ".class.names"
}

// cueTextWriter renders a cue's Text and Spans as WebVTT cue text. Its
// slices are reused from cue to cue.
type cueTextWriter struct {
	bounds []int
	byteAt []int
	sorted []caption.Span
	active []caption.Span
	open   []tag
	want   []tag
}

// appendText writes a cue's text: the kept raw payload when it still
// matches the cue, otherwise markup rebuilt from the spans.
func (wr *writer) appendText(buf []byte, c *caption.Cue) []byte {
	if payload, ok := wr.rawPayload(c); ok {
		return append(buf, payload...)
	}
	if len(c.Spans) == 0 && c.Voice == "" {
		buf, _ = appendEscaped(buf, c.Text, true)
		return buf
	}
	if len(c.Spans) == 1 && c.Voice == "" {
		if b, ok := appendWhollyStyled(buf, c.Text, &c.Spans[0]); ok {
			return b
		}
	}
	return wr.cueText.appendStyled(buf, c)
}

// rawPayload returns the payload kept in Cue.Ext["vtt"] when it is safe
// to write and still reads as the cue's current text, spans and voice.
func (wr *writer) rawPayload(c *caption.Cue) (string, bool) {
	raw, ok := c.Ext[Format]
	if !ok {
		return "", false
	}
	var ext cueExt
	if json.Unmarshal(raw, &ext) != nil || ext.Payload == "" {
		return "", false
	}
	p := ext.Payload
	if strings.Contains(p, "\n\n") || strings.Contains(p, "-->") || strings.ContainsAny(p, "\r\x00") ||
		p[0] == '\n' || p[len(p)-1] == '\n' {
		return "", false
	}
	ct := wr.tp.parse(p)
	if ct.text != c.Text || ct.voice != c.Voice || !slices.Equal(ct.spans, c.Spans) {
		return "", false
	}
	return p, true
}

// appendStyled renders text with spans. Span edges cut the text into
// segments; each segment gets the tags of every span over it, and the
// tags still open from the segment before are kept when they match, so
// that "<i>a<b>b</b></i>" comes out nested rather than repeated.
func (w *cueTextWriter) appendStyled(buf []byte, c *caption.Cue) []byte {
	text := c.Text
	n := utf8.RuneCountInString(text)
	spanVoices := false
	w.bounds = append(w.bounds[:0], 0, n)
	w.sorted = w.sorted[:0]
	for _, s := range c.Spans {
		s.Start, s.End = max(s.Start, 0), min(s.End, n)
		if s.Start >= s.End {
			continue
		}
		spanVoices = spanVoices || s.Voice != ""
		w.sorted = append(w.sorted, s)
		w.bounds = append(w.bounds, s.Start, s.End)
	}
	slices.Sort(w.bounds)
	w.bounds = slices.Compact(w.bounds)
	slices.SortStableFunc(w.sorted, func(a, b caption.Span) int { return a.Start - b.Start })
	w.byteOffsets(text)

	atLineStart := true
	if !spanVoices && c.Voice != "" {
		buf = appendTag(buf, tag{"v", annotation(c.Voice)})
		atLineStart = false
	}
	w.open, w.active = w.open[:0], w.active[:0]
	next := 0
	for k := 0; k+1 < len(w.bounds); k++ {
		a := w.bounds[k]
		kept := w.active[:0]
		for _, s := range w.active {
			if s.End > a {
				kept = append(kept, s)
			}
		}
		w.active = kept
		for ; next < len(w.sorted) && w.sorted[next].Start <= a; next++ {
			w.active = append(w.active, w.sorted[next])
		}
		w.want = wantTags(w.want[:0], w.active)
		same := 0
		for same < len(w.open) && same < len(w.want) && w.open[same] == w.want[same] {
			same++
		}
		for i := len(w.open) - 1; i >= same; i-- {
			buf = append(append(append(buf, "</"...), w.open[i].name...), '>')
		}
		for _, t := range w.want[same:] {
			buf = appendTag(buf, t)
		}
		if len(w.open) > same || len(w.want) > same {
			atLineStart = false
		}
		w.open = append(w.open[:0], w.want...)
		buf, atLineStart = appendEscaped(buf, text[w.byteAt[k]:w.byteAt[k+1]], atLineStart)
	}
	for i := len(w.open) - 1; i >= 0; i-- {
		buf = append(append(append(buf, "</"...), w.open[i].name...), '>')
	}
	return buf
}

// appendWhollyStyled is appendStyled's fast path for the commonest styled
// cue, one italic, bold or underline span over the whole text: it writes
// the tags, the escaped text and the closing tags. ok is false when the
// span is anything else.
func appendWhollyStyled(buf []byte, text string, s *caption.Span) ([]byte, bool) {
	if s.Start > 0 || s.Class != "" || s.Lang != "" || s.Voice != "" || text == "" {
		return buf, false
	}
	if s.End < len(text) && s.End < utf8.RuneCountInString(text) {
		return buf, false
	}
	if !s.Italic && !s.Bold && !s.Underline {
		buf, _ = appendEscaped(buf, text, true)
		return buf, true
	}
	if s.Italic {
		buf = append(buf, "<i>"...)
	}
	if s.Bold {
		buf = append(buf, "<b>"...)
	}
	if s.Underline {
		buf = append(buf, "<u>"...)
	}
	buf, _ = appendEscaped(buf, text, false)
	if s.Underline {
		buf = append(buf, "</u>"...)
	}
	if s.Bold {
		buf = append(buf, "</b>"...)
	}
	if s.Italic {
		buf = append(buf, "</i>"...)
	}
	return buf, true
}

// byteOffsets maps each rune boundary in w.bounds to its byte offset.
func (w *cueTextWriter) byteOffsets(text string) {
	w.byteAt = w.byteAt[:0]
	k, runes := 0, 0
	for i := range text {
		for k < len(w.bounds) && w.bounds[k] == runes {
			w.byteAt = append(w.byteAt, i)
			k++
		}
		runes++
	}
	for ; k < len(w.bounds); k++ {
		w.byteAt = append(w.byteAt, len(text))
	}
}

// wantTags lists, outermost first, the tags for text under spans.
func wantTags(dst []tag, spans []caption.Span) []tag {
	var st caption.Span
	for _, s := range spans {
		st.Italic, st.Bold, st.Underline = st.Italic || s.Italic, st.Bold || s.Bold, st.Underline || s.Underline
		st.Class = addClasses(st.Class, strings.Fields(s.Class))
		if s.Voice != "" {
			st.Voice = s.Voice
		}
		if s.Lang != "" {
			st.Lang = s.Lang
		}
	}
	if v := annotation(st.Voice); v != "" {
		dst = append(dst, tag{"v", v})
	}
	if l := annotation(st.Lang); l != "" {
		dst = append(dst, tag{"lang", l})
	}
	if cl := classArg(st.Class); cl != "" {
		dst = append(dst, tag{"c", cl})
	}
	if st.Italic {
		dst = append(dst, tag{name: "i"})
	}
	if st.Bold {
		dst = append(dst, tag{name: "b"})
	}
	if st.Underline {
		dst = append(dst, tag{name: "u"})
	}
	return dst
}

func appendTag(buf []byte, t tag) []byte {
	buf = append(append(buf, '<'), t.name...)
	switch {
	case t.name == "c":
		buf = append(buf, t.arg...)
	case t.arg != "":
		buf = append(append(buf, ' '), t.arg...)
	}
	return append(buf, '>')
}

// classArg turns space-separated class names into ".a.b", dropping the
// characters that end a class name in a tag.
func classArg(classes string) string {
	var sb strings.Builder
	for _, c := range strings.Fields(classes) {
		c = strings.Map(func(r rune) rune {
			if r == '.' || r == '>' || (r < 0x80 && isSpace(byte(r))) {
				return -1
			}
			return r
		}, c)
		if c != "" {
			sb.WriteByte('.')
			sb.WriteString(c)
		}
	}
	return sb.String()
}

// annotation makes a voice or language name safe inside a tag: one line,
// single spaces, and "&", "<", ">" escaped.
func annotation(s string) string {
	s = collapseSpace(s)
	if strings.ContainsAny(s, "&<>") {
		s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
	}
	return s
}

// escapeByte is a read-only table of the bytes appendEscaped must look at.
var escapeByte = [256]bool{'&': true, '<': true, '>': true, '\r': true, '\n': true}

// appendEscaped writes cue text: "&", "<" and ">" as references (so no
// "-->" can appear), CR as "&#13;", and a line break that would leave an
// empty line, which would end the cue, as "&#10;". atLineStart says
// whether the output line is still empty; it is returned updated. Plain
// runs are copied whole, as this is the writer's hot path.
func appendEscaped(buf []byte, s string, atLineStart bool) ([]byte, bool) {
	if s == "" {
		return buf, atLineStart
	}
	// Fast path: text without "&", "<", ">", CR or an empty line, which is
	// nearly every cue, is copied as it is. Vectorised byte searches beat
	// the loop below, and a word-at-a-time check, on cue-sized text.
	if strings.IndexByte(s, '<') < 0 && strings.IndexByte(s, '&') < 0 && strings.IndexByte(s, '>') < 0 &&
		strings.IndexByte(s, '\r') < 0 && !(atLineStart && s[0] == '\n') && !hasEmptyLine(s) {
		return append(buf, s...), s[len(s)-1] == '\n'
	}
	return escapeEach(buf, s, atLineStart)
}

// escapeEach is appendEscaped without its fast path: it looks at every
// byte.
func escapeEach(buf []byte, s string, atLineStart bool) ([]byte, bool) {
	last, prev := 0, 0 // start of the run not yet copied; index after the last special byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escapeByte[c] {
			continue
		}
		if i > prev {
			atLineStart = false
		}
		prev = i + 1
		var rep string
		switch c {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '\r':
			rep = "&#13;"
		case '\n':
			if !atLineStart {
				atLineStart = true
				continue
			}
			rep = "&#10;"
		}
		buf = append(append(buf, s[last:i]...), rep...)
		last = i + 1
		atLineStart = false
	}
	if len(s) > prev {
		atLineStart = false
	}
	return append(buf, s[last:]...), atLineStart
}

// hasEmptyLine reports whether s has two line breaks in a row. Cue text
// has few line breaks, so finding each beats searching for the pair.
func hasEmptyLine(s string) bool {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || i+1 >= len(s) {
			return false
		}
		if s[i+1] == '\n' {
			return true
		}
		s = s[i+1:]
	}
}
