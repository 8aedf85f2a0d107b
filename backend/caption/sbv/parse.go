package sbv

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Parse reads SBV captions. Problems in the file become diagnostics (see
// the package documentation); the error is only ever an I/O error.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}

// parser holds the state of one parse.
type parser struct {
	lines []string
	i     int // index of the next unread line; its number is i+1
	d     caption.Diagnostics
	cues  []caption.Cue
	cur   caption.Cue // the open cue, without its text
	text  []string    // the open cue's lines
	open  bool        // cur may still get more lines
	// inner counts the blank lines inside the open cue's text; the first
	// one's warning is d[innerAt] and stands for all of them (see
	// closeCue): a broken file can hold thousands in one cue.
	inner, innerAt int
	// once holds, per message, the index in d of a note reported once per
	// file and how often it occurred.
	once map[string]*[2]int
}

func parseText(text string) (*caption.Track, caption.Diagnostics) {
	p := &parser{lines: caption.SplitLines(text), once: map[string]*[2]int{}}
	// About one cue per blank line, but never more than a timing line's
	// worth of bytes allows, whatever the file holds.
	p.cues = make([]caption.Cue, 0, min(strings.Count(text, "\n\n")+1, len(text)/24+1))
	blanks, started := 0, false
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		if strings.TrimSpace(line) == "" {
			blanks++
			p.i++
			continue
		}
		allowed := 1
		if !started {
			allowed = 0
		}
		if blanks > allowed {
			p.note(caption.CodeNonStandardSyntax, p.i+1-blanks+allowed, "extra blank lines between cues were ignored")
		}
		blanks, started = 0, true
		start, end, q, ok := parseTiming(line)
		switch {
		case ok:
			p.closeCue()
			p.cue(start, end, q)
		case looksLikeTiming(line):
			p.closeCue()
			p.d.Error(caption.CodeInvalidTimestamp, p.i+1, "timing line %q could not be read; the cue was skipped", line)
			p.i++
			p.skip(true)
		case p.open:
			if p.inner == 0 {
				p.innerAt = len(p.d)
				p.d.Warn(caption.CodeNonStandardSyntax, p.i+1,
					"a blank line inside cue text; the lines after it were kept in the cue above")
			}
			p.inner++
			p.readText()
		default:
			p.closeCue()
			first := p.i + 1
			last := p.skip(false)
			p.d.Error(caption.CodeMalformedBlock, first, "lines %d to %d are not a cue (no timing line) and were skipped", first, last)
		}
	}
	if blanks > 1 {
		p.note(caption.CodeNonStandardSyntax, len(p.lines)-blanks+2, "extra blank lines between cues were ignored")
	}
	p.closeCue()
	for _, n := range p.once {
		if n[1] > 1 {
			p.d[n[0]].Message += " (" + strconv.Itoa(n[1]) + " times in the file; the first is reported)"
		}
	}
	return &caption.Track{Cues: p.cues}, p.d
}

// note reports msg the first time it happens and counts the rest: such
// notes could otherwise repeat on every cue.
func (p *parser) note(code string, line int, msg string) {
	if n, ok := p.once[msg]; ok {
		n[1]++
		return
	}
	p.once[msg] = &[2]int{len(p.d), 1}
	p.d = append(p.d, caption.Diagnostic{Code: code, Severity: caption.SeverityInfo, Line: line, Message: msg})
}

// cue opens a cue at the timing line p.i and reads its text.
func (p *parser) cue(start, end int64, q []string) {
	line := p.i + 1
	for _, msg := range q {
		p.note(caption.CodeNonStandardSyntax, line, msg)
	}
	p.i++
	if end < start {
		p.d.Error(caption.CodeEndBeforeStart, line, "the cue was skipped: it ends (%s) before it starts (%s)",
			caption.FormatClock(end), caption.FormatClock(start))
		p.skip(true)
		return
	}
	p.cur = caption.Cue{StartMs: start, EndMs: end, SourceLine: line}
	p.text, p.open = p.text[:0], true
	p.readText()
}

// readText adds lines to the open cue up to a blank line or the next
// timing line.
func (p *parser) readText() {
	for ; p.i < len(p.lines); p.i++ {
		line := strings.TrimRight(p.lines[p.i], " \t")
		if strings.TrimSpace(line) == "" {
			return
		}
		if _, _, _, ok := parseTiming(line); ok {
			p.note(caption.CodeNonStandardSyntax, p.i+1, "a cue starts without a blank line before it")
			return
		}
		p.text = append(p.text, line)
	}
}

// skip drops lines up to a blank line (toBlank) or up to the next valid
// timing line, and returns the number of the last non-blank line dropped.
func (p *parser) skip(toBlank bool) (last int) {
	for ; p.i < len(p.lines); p.i++ {
		line := p.lines[p.i]
		blank := strings.TrimSpace(line) == ""
		if toBlank && blank {
			return last
		}
		if _, _, _, ok := parseTiming(line); ok {
			return last
		}
		if !blank {
			last = p.i + 1
		}
	}
	return last
}

// closeCue sets the open cue's text, with [br] as a line break, and adds it.
func (p *parser) closeCue() {
	if !p.open {
		return
	}
	p.open = false
	if p.inner > 1 {
		d := &p.d[p.innerAt]
		d.Message = fmt.Sprintf("%d blank lines inside cue text, the first before line %d; the lines after them were kept in the cue above",
			p.inner, d.Line)
	}
	p.inner = 0
	c := p.cur
	if len(p.text) == 1 {
		c.Text = p.text[0]
	} else {
		c.Text = strings.Join(p.text, "\n")
	}
	if strings.Contains(c.Text, "[br]") {
		c.Text = strings.TrimRight(strings.ReplaceAll(c.Text, "[br]", "\n"), "\n")
	}
	p.cues = append(p.cues, c)
}
