package srt

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Parse reads SubRip captions. Problems in the file become diagnostics (see
// the package documentation); the error is only ever an I/O error.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}

// lineRef is one text line of a cue: src[start:end] with trailing spaces
// removed, and its 1-based line number.
type lineRef struct {
	start, end, no int
}

// parser holds the state of one parse. Cue text is kept as offsets into src
// and only turned into a string when the cue closes, so that plain cues
// whose lines are contiguous in the file become substrings of it.
type parser struct {
	src   string
	off   int // offset of the next unread line
	no    int // 1-based number of the next unread line
	d     caption.Diagnostics
	notes notes
	cues  []caption.Cue

	open    bool        // cur is a cue whose text is still being read
	cur     caption.Cue // the open cue, without its text
	text    []lineRef   // the open cue's lines, reused from cue to cue
	counter int64       // the counter the next block should carry
	mk      markup

	// inner counts the blank lines inside the open cue's text; the first
	// one's warning is d[innerAt]. A broken file can hold thousands of
	// them in one cue, and one warning per line would cost far more than
	// the reading (see closeCue).
	inner, innerAt int

	// The last line lineAt found: src[lastOff:lastEnd], ending before
	// lastNext; lastNext is 0 before the first.
	lastOff, lastEnd, lastNext int
}

func parseText(text string) (*caption.Track, caption.Diagnostics) {
	if strings.IndexByte(text, '\r') >= 0 {
		// One LF per CR, LF or CRLF keeps line numbers and lets multi-line
		// cues stay substrings of the text.
		text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text)
	}
	p := &parser{src: text, no: 1, counter: 1}
	p.notes.d = &p.d
	// One cue per arrow, but no more than a minimal timing line per 32
	// bytes: a file of bare arrows must not reserve 40 times its size.
	p.cues = make([]caption.Cue, 0, min(strings.Count(text, "-->"), len(text)/32+1))
	p.run()
	p.notes.finish()
	return &caption.Track{Cues: p.cues}, p.d
}

// peek returns the next unread line, without its line ending, and the
// offset after it.
func (p *parser) peek() (line string, next int) {
	return p.lineAt(p.off)
}

// peekSecond returns the line after the next unread one.
func (p *parser) peekSecond(next int) (string, bool) {
	if next >= len(p.src) {
		return "", false
	}
	line, _ := p.lineAt(next)
	return line, true
}

// lineAt returns the line that starts at offset off and the offset after
// it. Most lines are looked at twice (a timing line as the line after a
// counter and then as the next line; a blank line by the text reader and
// then by run), so the last line found is remembered.
func (p *parser) lineAt(off int) (line string, next int) {
	if off == p.lastOff && p.lastNext > off {
		return p.src[off:p.lastEnd], p.lastNext
	}
	rest := p.src[off:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		line, next = rest[:i], off+i+1
	} else {
		line, next = rest, len(p.src)
	}
	p.lastOff, p.lastEnd, p.lastNext = off, off+len(line), next
	return line, next
}

func (p *parser) advance(next int) { p.off, p.no = next, p.no+1 }

func (p *parser) run() {
	blanks, firstBlank, started := 0, 0, false
	for p.off < len(p.src) {
		line, next := p.peek()
		if trimSpace(line) == "" {
			if blanks == 0 {
				firstBlank = p.no
			}
			blanks++
			p.advance(next)
			continue
		}
		// One blank line ends a block; any other is extra, and so is a
		// blank line before the first block.
		allowed := 1
		if !started {
			allowed = 0
		}
		if blanks > allowed {
			p.notes.add(noteExtraBlank, caption.CodeNonStandardSyntax, caption.SeverityInfo, firstBlank+allowed,
				"extra blank lines between cues were ignored")
		}
		blanks, started = 0, true
		second, ok := p.peekSecond(next)
		switch {
		case hasArrow(line):
			p.closeCue()
			start := p.no
			p.advance(next)
			p.block("", false, start, line, start)
		case ok && hasArrow(second):
			p.closeCue()
			start := p.no
			p.advance(next)
			timing, next2 := p.peek()
			p.advance(next2)
			p.block(trimSpace(line), true, start, timing, start+1)
		case p.open && !isDigits(trimSpace(line)):
			if p.inner == 0 {
				p.innerAt = len(p.d)
				p.d.Warn(caption.CodeNonStandardSyntax, p.no,
					"a blank line inside the text of cue %q; the lines after it were kept in the cue", p.cur.ID)
			}
			p.inner++
			p.readText()
		default:
			p.closeCue()
			p.skipMalformed(line)
		}
	}
	if blanks > 1 {
		p.notes.add(noteExtraBlank, caption.CodeNonStandardSyntax, caption.SeverityInfo, firstBlank+1,
			"extra blank lines between cues were ignored")
	}
	p.closeCue()
}

// block reads the rest of a cue after its timing line: it checks the
// counter, parses the timing and reads the text lines.
func (p *parser) block(id string, hasCounter bool, startLine int, timing string, timingLine int) {
	start, end, rest, q, ok := parseTiming(timing)
	want := p.counter
	v, isNum := counterValue(id)
	if isNum {
		p.counter = v + 1
	} else {
		p.counter++
	}
	if !ok {
		p.d.Error(caption.CodeInvalidTimestamp, timingLine, "timing line %q could not be read; the cue was skipped", timing)
		p.skipText()
		return
	}
	if q != 0 {
		p.notes.quirks(q, timingLine)
	}
	if rest != "" {
		if isCoordinates(rest) {
			p.notes.add(noteCoordinates, caption.CodeUnsupportedFeature, caption.SeverityInfo, timingLine,
				"cue box coordinates after the timing (X1:… Y2:…) were ignored")
		} else {
			p.notes.add(noteTrailingText, caption.CodeNonStandardSyntax, caption.SeverityWarning, timingLine,
				"text after the end time of a timing line was ignored: "+strconv.Quote(rest))
		}
	}
	if end < start {
		p.d.Error(caption.CodeEndBeforeStart, timingLine, "cue %q was skipped: it ends (%s) before it starts (%s)",
			id, caption.FormatClock(end), caption.FormatClock(start))
		p.skipText()
		return
	}
	switch {
	case !hasCounter:
		p.d.Warn(caption.CodeInvalidCounter, timingLine, "the cue has no counter line; %d was expected", want)
	case !isNum:
		p.d.Warn(caption.CodeInvalidCounter, startLine, "counter %q is not a number; %d was expected", id, want)
	case v != want:
		p.d.Warn(caption.CodeInvalidCounter, startLine, "counter %s is out of sequence; %d was expected", id, want)
	}
	p.cur = caption.Cue{ID: id, StartMs: start, EndMs: end, SourceLine: startLine}
	p.open = true
	p.text = p.text[:0]
	p.readText()
}

// counterValue reads a counter; long runs of digits are not counters.
func counterValue(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int64(s[i]-'0')
	}
	return v, true
}

// readText adds lines to the open cue up to a blank line or the start of
// the next cue.
func (p *parser) readText() {
	for p.off < len(p.src) {
		line, next := p.peek()
		text := trimRightSpace(line)
		if trimLeftSpace(text) == "" {
			return
		}
		if p.startsCue(text, next) {
			p.notes.add(noteMissingBlank, caption.CodeNonStandardSyntax, caption.SeverityInfo, p.no,
				"a cue starts without a blank line before it")
			return
		}
		if len(p.text) == cap(p.text) {
			// Doubling, where append grows a long slice by a quarter,
			// copies a cue of tens of thousands of lines twice over
			// instead of five times.
			p.text = slices.Grow(p.text, len(p.text)+1)
		}
		p.text = append(p.text, lineRef{start: p.off, end: p.off + len(text), no: p.no})
		p.advance(next)
	}
}

// startsCue reports whether a line of cue text is in fact the start of the
// next cue: a valid timing line, or a number followed by one. Only lines
// that start with a digit can be either, which keeps the check cheap.
func (p *parser) startsCue(line string, next int) bool {
	if t := trimLeftSpace(line); t == "" || !isDigit(t[0]) {
		return false
	}
	if _, _, _, _, ok := parseTiming(line); ok {
		return true
	}
	if !isDigits(trimSpace(line)) {
		return false
	}
	second, ok := p.peekSecond(next)
	if !ok {
		return false
	}
	_, _, _, _, ok = parseTiming(second)
	return ok
}

// skipText drops the text lines of a block that was not kept.
func (p *parser) skipText() {
	for p.off < len(p.src) {
		line, next := p.peek()
		if trimSpace(line) == "" || p.startsCue(line, next) {
			return
		}
		p.advance(next)
	}
}

// skipMalformed drops lines up to the next line that starts a block, and
// reports them as one malformed block.
func (p *parser) skipMalformed(first string) {
	start, last := p.no, p.no
	if v, ok := counterValue(trimSpace(first)); ok {
		p.counter = v + 1 // a counter without its timing still uses its number
	}
	for p.off < len(p.src) {
		line, next := p.peek()
		if strings.Contains(line, "-->") {
			break
		}
		if second, ok := p.peekSecond(next); ok && strings.Contains(second, "-->") && trimSpace(line) != "" {
			break
		}
		if trimSpace(line) != "" {
			last = p.no
		}
		p.advance(next)
	}
	p.d.Error(caption.CodeMalformedBlock, start, "lines %d to %d are not a cue (no timing line) and were skipped", start, last)
}

// closeCue turns the open cue's lines into its text and adds it.
func (p *parser) closeCue() {
	if !p.open {
		return
	}
	p.open = false
	if p.inner > 1 {
		// The warning of the first blank line stands for all of them.
		d := &p.d[p.innerAt]
		d.Message = fmt.Sprintf("%d blank lines inside the text of cue %q, the first before line %d; the lines after them were kept in the cue",
			p.inner, p.cur.ID, d.Line)
	}
	p.inner = 0
	p.cues = append(p.cues, p.cur)
	c := &p.cues[len(p.cues)-1]
	c.Text, c.Spans, c.Placement = p.cueText()
}

// cueText returns the text of the open cue: a substring of the file when
// its lines are plain and contiguous, else a new string.
func (p *parser) cueText() (string, []caption.Span, *caption.Placement) {
	lines := p.text
	if len(lines) == 0 {
		return "", nil, nil
	}
	first, last := lines[0], lines[len(lines)-1]
	whole := p.src[first.start:last.end]
	if hasMarkup(whole) {
		if text, spans, ok := p.wrappedText(lines); ok {
			return text, spans, nil
		}
		return p.mk.build(p.src, lines, &p.notes)
	}
	contiguous := true
	for i := 1; i < len(lines); i++ {
		if lines[i].start != lines[i-1].end+1 {
			contiguous = false
			break
		}
	}
	if contiguous {
		return whole, nil, nil
	}
	var sb strings.Builder
	sb.Grow(len(whole))
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(p.src[l.start:l.end])
	}
	return sb.String(), nil, nil
}

// wrappedText is the markup reader's fast path for the commonest styled
// cue: every line is one <i>, <b> or <u> element around text with no
// markup and no trailing space ("<i>text</i>"). It gives what
// [markup.build] gives: the lines joined, under one span. ok is false for
// any other cue.
func (p *parser) wrappedText(lines []lineRef) (text string, spans []caption.Span, ok bool) {
	first := p.src[lines[0].start:lines[0].end]
	if len(first) < 8 || first[0] != '<' || first[2] != '>' {
		return "", nil, false
	}
	name := first[1]
	var style caption.Span
	switch name {
	case 'i':
		style.Italic = true
	case 'b':
		style.Bold = true
	case 'u':
		style.Underline = true
	default:
		return "", nil, false
	}
	for _, l := range lines {
		s := p.src[l.start:l.end]
		n := len(s)
		if n < 8 || s[0] != '<' || s[1] != name || s[2] != '>' ||
			s[n-4] != '<' || s[n-3] != '/' || s[n-2] != name || s[n-1] != '>' {
			return "", nil, false
		}
		if inner := s[3 : n-4]; isSpace(inner[len(inner)-1]) || hasMarkup(inner) {
			return "", nil, false
		}
	}
	tb := &p.mk.tb
	tb.Reset()
	for i, l := range lines {
		if i > 0 {
			tb.Write("\n", style)
		}
		tb.Write(p.src[l.start+3:l.end-4], style)
	}
	text, spans = tb.Build()
	return text, spans, true
}

// hasArrow reports whether line contains "-->". It answers the two
// commonest lines, a counter and a standard timing line, without a
// substring search.
func hasArrow(line string) bool {
	if len(line) >= standardTimingLen && line[12:17] == " --> " {
		return true
	}
	if len(line) <= 20 && isDigits(line) {
		return false
	}
	return strings.Contains(line, "-->")
}

// hasMarkup reports whether s has a byte that may start a tag, an override
// block or an entity; plain text skips the markup reader. Three vectorised
// byte searches beat one loop over the bytes.
func hasMarkup(s string) bool {
	return strings.IndexByte(s, '<') >= 0 || strings.IndexByte(s, '&') >= 0 || strings.IndexByte(s, '{') >= 0
}
