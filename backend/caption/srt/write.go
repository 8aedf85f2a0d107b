package srt

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// flushAt is the buffer size at which Write hands bytes to the writer.
const flushAt = 32 << 10

// Write writes t as SubRip: counters 1..n, LF line endings, a blank line
// after every cue, spans as tags and non-default placement as {\anN} (see
// the package documentation). A cue without visible text is left out
// ([Shows]). The output is deterministic. The error is only ever the
// writer's.
func Write(w io.Writer, t *caption.Track) error {
	buf := make([]byte, 0, flushAt+4<<10)
	var st styler
	n := 0
	for i := range t.Cues {
		c := &t.Cues[i]
		if !Shows(c) {
			continue
		}
		n++
		buf = strconv.AppendInt(buf, int64(n), 10)
		buf = append(buf, '\n')
		buf = caption.AppendClock(buf, c.StartMs, 2, ',')
		buf = append(buf, " --> "...)
		buf = caption.AppendClock(buf, c.EndMs, 2, ',')
		buf = append(buf, '\n')
		if pos := numpadOf(c.Placement); pos != 2 {
			buf = append(buf, "{\\an"...)
			buf = append(buf, byte('0'+pos), '}')
		}
		if len(c.Spans) == 0 && plainSafe(c.Text) {
			buf = append(buf, c.Text...)
		} else {
			buf = st.appendText(buf, c.Text, c.Spans)
		}
		if buf[len(buf)-1] != '\n' {
			buf = append(buf, '\n')
		}
		buf = append(buf, '\n')
		if len(buf) >= flushAt {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("srt: write: %w", err)
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("srt: write: %w", err)
	}
	return nil
}

// Shows reports whether [Write] writes cue c: its text has a character
// that is not white space. A cue without one would be a block without a
// text line, which readers do not agree on (ffmpeg drops it, ttconv fails
// on it), and which shows nothing; so, as the TTML and SCC writers do,
// Write leaves it out and the caller reports it (format.Delivers).
func Shows(c *caption.Cue) bool {
	return strings.TrimFunc(c.Text, unicode.IsSpace) != ""
}

// numpadOf returns the {\anN} keypad position of a placement; 2 (bottom
// centre) is the default.
func numpadOf(p *caption.Placement) int {
	if p == nil {
		return 2
	}
	pos := 2
	switch p.Area {
	case caption.AreaTop:
		pos = 8
	case caption.AreaMiddle:
		pos = 5
	}
	switch p.Align {
	case "left", "start":
		pos--
	case "right", "end":
		pos++
	}
	return pos
}

// plainSafe reports whether text can be written as it is: no line is blank
// or ends in a space, nothing in it would read back as markup or an entity,
// and it holds no "-->" (which [styler.appendText] keeps unless its line
// reads as a timing line, a check too rare to be worth making here). It is
// one pass over the bytes, as nearly every cue takes this path.
func plainSafe(text string) bool {
	if text == "" {
		return true
	}
	// Only seven bytes need a look, and they are rare in caption text, so
	// the loop runs on a table test the branch predictor gets right.
	for i := 0; i < len(text); i++ {
		if !notable[text[i]] {
			continue
		}
		switch text[i] {
		case '>':
			if i >= 2 && text[i-1] == '-' && text[i-2] == '-' {
				return false
			}
		case '\n':
			// A line ending in a space, or blank: every non-space byte
			// but a line break gives a line content.
			if i == 0 || text[i-1] == '\n' || isSpace(text[i-1]) {
				return false
			}
		case '\\':
			if i+1 < len(text) && (text[i+1] == 'N' || text[i+1] == 'n' || text[i+1] == 'h') {
				return false // an ASS escape ([markupAt])
			}
		default:
			return false
		}
	}
	last := text[len(text)-1]
	return last != '\n' && !isSpace(last)
}

// notable[c] says byte c may stop [plainSafe]: it opens a tag, an
// override block, an ASS escape or an entity, ends a line, or closes an
// arrow. A read-only table, built once.
var notable = func() (t [256]bool) {
	for _, c := range []byte("<&{\\\r>\n") {
		t[c] = true
	}
	return t
}()

// style is the part of a span the SRT writer renders.
type style struct {
	italic, bold, underline bool
	color                   string
}

// Tags the writer opens, in nesting order.
const (
	openFont = iota
	openBold
	openItalic
	openUnderline
)

// styler renders styled text; its buffers are reused from cue to cue.
type styler struct {
	bounds []int
	open   []int // the tags open, outermost first
	cur    style
	looks  []int // the byte offsets of the text's bytes written as look-alikes ([markupAt])
}

// appendText writes text line by line with tags for spans, dropping blank
// lines and trailing spaces, writing what would read as markup in some
// reader as look-alikes ([markupAt]) and escaping what this package's
// reader would take for an entity.
func (st *styler) appendText(buf []byte, text string, spans []caption.Span) []byte {
	st.looks = markupAt(text, st.looks)
	nl := 0  // index in looks of the next one to write
	off := 0 // byte offset of the current line in text
	st.bounds = st.bounds[:0]
	for _, s := range spans {
		st.bounds = append(st.bounds, s.Start, s.End)
	}
	slices.Sort(st.bounds)
	st.bounds = slices.Compact(st.bounds)
	st.open, st.cur = st.open[:0], style{}
	next := 0 // index in bounds of the next style change
	// restyleAt switches to the style at code point at when a span starts
	// or ends there (or earlier, in text that was dropped).
	restyleAt := func(buf []byte, at int) []byte {
		if next < len(st.bounds) && st.bounds[next] <= at {
			for next < len(st.bounds) && st.bounds[next] <= at {
				next++
			}
			buf = st.restyle(buf, styleAt(spans, at))
		}
		return buf
	}
	r := 0 // code point offset of the current line in text
	wrote := false
	for {
		line, rest, more := strings.Cut(text, "\n")
		if body := trimRightSpace(line); trimLeftSpace(body) != "" {
			if wrote {
				// The line break takes the style of the "\n" before this line.
				buf = restyleAt(buf, r-1)
				buf = append(buf, '\n')
			}
			wrote = true
			at := r
			timing := timingLike(body)
			for i, c := range body {
				buf = restyleAt(buf, at)
				if nl < len(st.looks) && st.looks[nl] == off+i {
					nl++
					buf = append(buf, lookalike(byte(c))...)
				} else {
					buf = appendEscaped(buf, body, i, c, timing)
				}
				at++
			}
		}
		if !more {
			break
		}
		r += utf8.RuneCountInString(line) + 1
		off += len(line) + 1
		text = rest
	}
	return st.restyle(buf, style{})
}

// styleAt merges the spans that cover code point at; later spans win.
func styleAt(spans []caption.Span, at int) style {
	var s style
	for _, sp := range spans {
		if sp.Start <= at && at < sp.End {
			s.italic = s.italic || sp.Italic
			s.bold = s.bold || sp.Bold
			s.underline = s.underline || sp.Underline
			if c, ok := parseColor(sp.Color); ok {
				s.color = c
			}
		}
	}
	return s
}

// restyle closes the open tags that want no longer has and opens the ones
// it adds.
func (st *styler) restyle(buf []byte, want style) []byte {
	if want == st.cur {
		return buf
	}
	keep := 0
	for _, t := range st.open {
		ok := false
		switch t {
		case openFont:
			ok = want.color == st.cur.color
		case openBold:
			ok = want.bold
		case openItalic:
			ok = want.italic
		case openUnderline:
			ok = want.underline
		}
		if !ok {
			break
		}
		keep++
	}
	for k := len(st.open) - 1; k >= keep; k-- {
		buf = append(buf, closeTags[st.open[k]]...)
	}
	st.open = st.open[:keep]
	has := [4]bool{}
	for _, t := range st.open {
		has[t] = true
	}
	if want.color != "" && !has[openFont] {
		buf = append(buf, `<font color="`...)
		buf = append(buf, want.color...)
		buf = append(buf, `">`...)
		st.open = append(st.open, openFont)
	}
	for t, on := range [4]bool{openBold: want.bold, openItalic: want.italic, openUnderline: want.underline} {
		if on && !has[t] {
			buf = append(buf, openTags[t]...)
			st.open = append(st.open, t)
		}
	}
	st.cur = want
	return buf
}

// openTags and closeTags are read-only tables of the markup for each
// style bit.
var (
	openTags  = [4]string{openBold: "<b>", openItalic: "<i>", openUnderline: "<u>"}
	closeTags = [4]string{"</font>", "</b>", "</i>", "</u>"}
)

// appendEscaped writes the code point c at byte i of line, as an entity
// when the reader would otherwise take it as the start of one (markup is
// written as look-alikes: [markupAt]); timing says the line would read as
// a timing line ([timingLike]).
func appendEscaped(buf []byte, line string, i int, c rune, timing bool) []byte {
	rest := line[i:]
	switch c {
	case '&':
		if _, k := entity(rest); k > 0 {
			return append(buf, "&amp;"...)
		}
	case '>':
		// SRT players show entities as they are, so "--&gt;" would put
		// "&gt;" on screen: the arrow stays unless it makes the line a
		// timing line.
		if timing && strings.HasSuffix(line[:i], "--") {
			return append(buf, arrowHead...)
		}
	case '\r':
		return append(buf, "&#13;"...)
	}
	return utf8.AppendRune(buf, c)
}

// arrowHead is what [Write] writes for the ">" of a "-->" on a line that
// would read as a timing line: "›" (U+203A) looks like the arrow's head,
// is in every font that has the Windows-1252 repertoire, and, unlike an
// entity, no player shows as markup. It is one code point, like ">", so
// spans keep their offsets.
const arrowHead = "\u203a"

// timingLike reports whether a line of cue text would read as a timing
// line. Readers take a timing line only as a block's first or second line,
// except for a line that scans as one: this reader, like ffmpeg's, then
// starts a new cue there, as for a file that left out a blank line. Any
// other "-->" in text stays as it is.
func timingLike(line string) bool {
	if !strings.Contains(line, "-->") {
		return false
	}
	_, _, _, _, ok := parseTiming(line)
	return ok
}

// RewritesArrow reports whether [Write] writes text other than as it is:
// a line of it that would read as a timing line has the ">" of each "-->"
// written as "›" (U+203A), so it reads back with "--›".
func RewritesArrow(text string) bool {
	if !strings.Contains(text, "-->") {
		return false // nearly every cue: one vectorised search
	}
	for line := range strings.SplitSeq(text, "\n") {
		if timingLike(trimRightSpace(line)) {
			return true
		}
	}
	return false
}
