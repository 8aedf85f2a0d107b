package ass

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Format is the format name the reader records in [caption.Source].
const Format = "ass"

// Parse reads an ASS (v4.00+) or SSA (v4.00) script. Problems in the script
// become diagnostics with 1-based line numbers; the error is only ever an
// I/O error from r.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}

// parser holds the state of one parse. It lives for one call of
// [parseText], so the package keeps no mutable state of its own.
type parser struct {
	d caption.Diagnostics
	t *caption.Track

	sec     section
	started bool // a non-blank, non-comment line has been seen

	info scriptInfo

	styleCols  []string       // lower-case column names of the current styles section
	styleIndex map[string]int // style name -> index in t.Styles
	styleFold  map[string]int // lower-case style name -> index, for case-insensitive lookups
	styleAttrs []textState    // parallel to t.Styles
	styleAlign []int          // numpad alignment, parallel to t.Styles

	eventCols          []string
	sawEvents          bool // an [Events] header was seen
	warnedOutside      bool // about event lines outside [Events]
	warnedStyleOutside bool
	warnedNoFormat     map[section]bool
	warnedStyle        map[string]bool // unknown event style names already reported

	tb caption.TextBuilder
}

func parseText(text string) (*caption.Track, caption.Diagnostics) {
	p := &parser{
		t:              &caption.Track{Cues: []caption.Cue{}},
		styleIndex:     map[string]int{},
		warnedNoFormat: map[section]bool{},
		warnedStyle:    map[string]bool{},
		styleFold:      map[string]int{},
	}
	lines := caption.SplitLines(text)
	for i := 0; i < len(lines); i++ {
		i = p.line(lines, i)
	}
	p.finish()
	return p.t, p.d
}

// line handles lines[i] and returns the index of the last line it used
// (a Format line may continue onto the next lines).
func (p *parser) line(lines []string, i int) int {
	raw := lines[i]
	n := i + 1
	if p.sec.binary() {
		// Embedded font and picture data is most of a big script: look at
		// nothing but a possible section header.
		if len(raw) > 0 && raw[0] == '[' && isTextHeader(raw) {
			p.header(raw, n)
		}
		return i
	}
	s := strings.TrimSpace(raw)
	if s == "" || s[0] == ';' || strings.HasPrefix(s, "!:") {
		return i
	}
	if s[0] == '[' && s[len(s)-1] == ']' {
		p.header(s, n)
		return i
	}
	if !p.started {
		p.started = true
		p.d.Warn(caption.CodeNonStandardSyntax, n, "the script does not start with a [Script Info] section")
	}
	key, value, ok := strings.Cut(s, ":")
	if !ok {
		if p.sec != secUnknown && p.sec != secIgnored {
			p.d.Warn(caption.CodeMalformedBlock, n, "line %q is not a \"Key: value\" line and was skipped", clip(s))
		}
		return i
	}
	key = strings.ToLower(strings.TrimSpace(key))
	value = strings.TrimLeft(value, " \t")
	if isEventType(key) {
		p.event(key, value, n)
		return i
	}
	switch p.sec {
	case secStylesV4, secStylesV4Plus:
		switch key {
		case "format":
			value, i = continueFormat(value, lines, i, &p.d)
			p.styleCols = p.formatCols(value, n, p.sec)
		case "style":
			p.style(value, n)
		default:
			p.d.Warn(caption.CodeMalformedBlock, n, "line %q is not a Style or Format line and was skipped", clip(s))
		}
	case secEvents:
		if key == "format" {
			value, i = continueFormat(value, lines, i, &p.d)
			p.eventCols = p.formatCols(value, n, secEvents)
			return i
		}
		// A misspelt "Dialogue:" loses its text: content left out.
		p.d.Error(caption.CodeMalformedBlock, n, "line %q is not an event or Format line and was left out", clip(s))
	case secNone, secScriptInfo:
		if key == "style" {
			p.style(value, n)
			return i
		}
		p.infoLine(key, strings.TrimSpace(value), n)
	}
	return i
}

// finish records the script-level details once every line is read.
func (p *parser) finish() {
	if !p.sawEvents && len(p.t.Cues) == 0 {
		p.d.Warn(caption.CodeInvalidDocument, 0, "the script has no [Events] section")
	}
	if ext := p.info.ext(); ext != nil {
		b, err := json.Marshal(ext)
		if err == nil {
			p.t.Ext = map[string]json.RawMessage{Format: b}
		}
	}
}

// clip shortens s for a diagnostic message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
