package vtt

import (
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Format is the format name of WebVTT in [caption.Source] and the format
// registry.
const Format = "vtt"

// Parse reads a WebVTT file. Every problem in the file, including a
// missing "WEBVTT" signature, becomes a diagnostic; the error is only ever
// an I/O error from r.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}

// rawCue is a cue as the spec's parser produces it, before it is mapped
// onto the IR. Conformance tests compare it with WPT's expectations.
type rawCue struct {
	id         string
	start, end timestamp
	// payload is the cue text with its markup, lines joined by "\n".
	payload  string
	settings cueSettings
	// line is where the cue block starts; payloadLine is the line of the
	// first payload line.
	line, payloadLine int
}

// rawFile is everything the spec's parser keeps from a file.
type rawFile struct {
	// header is the text of the header block (the lines after "WEBVTT").
	header  string
	cues    []rawCue
	styles  []string
	regions []*rawRegion
}

// parser holds the state of the spec's file parsing algorithm over the
// normalised text s. lineNo is the 1-based line that starts at pos.
type parser struct {
	s       string
	pos     int
	lineNo  int
	seenCue bool
	// regionByID indexes f.regions by id, the last definition winning,
	// so that a cue's region lookup does not grow with the region count.
	regionByID map[string]*rawRegion
	f          rawFile
	d          diagSink
}

// parseFile runs the WebVTT file parsing algorithm, leniently reading a
// file that lacks the signature.
func parseFile(text string) (*rawFile, *diagSink) {
	p := &parser{s: normalize(text), lineNo: 1}
	p.run()
	return &p.f, &p.d
}

func (p *parser) run() {
	s := p.s
	if !hasSignature(s) {
		first, _, _ := strings.Cut(s, "\n")
		if len(first) < 6 || !strings.EqualFold(first[:6], "WEBVTT") {
			p.d.warnf(caption.CodeMissingWebVTTHeader, 1, "the file does not start with \"WEBVTT\"; its cues were read anyway")
			p.skipNewlines()
			p.blocks()
			return
		}
		p.d.warnf(caption.CodeMissingWebVTTHeader, 1, "the first line %q is not a WebVTT signature (\"WEBVTT\", then a space, tab or line break); the file was read anyway", clip(first))
	}
	// The signature line, then the optional header block.
	i := strings.IndexByte(s, '\n')
	if i < 0 || i+1 >= len(s) {
		return
	}
	p.pos, p.lineNo = i+1, 2
	if s[p.pos] != '\n' {
		b := p.collectBlock(true)
		p.f.header = b.buffer
	}
	p.skipNewlines()
	p.blocks()
}

// blocks is the spec's block loop.
func (p *parser) blocks() {
	for p.pos < len(p.s) {
		b := p.collectBlock(false)
		switch {
		case b.cue != nil:
			p.f.cues = append(p.f.cues, *b.cue)
		case b.style:
			p.f.styles = append(p.f.styles, b.buffer)
		case b.region != nil:
			r := b.region
			parseRegionSettings(r, b.buffer, func(setting, why string) {
				p.d.warnf(caption.CodeInvalidSetting, r.line, "region setting %q: %s", clip(setting), why)
			})
			p.f.regions = append(p.f.regions, r)
			if p.regionByID == nil {
				p.regionByID = map[string]*rawRegion{}
			}
			p.regionByID[r.id] = r
		case b.timingFailed || isComment(b.first):
		case p.seenCue && (isKeywordLine(b.first, "STYLE") || isKeywordLine(b.first, "REGION")):
			p.d.warnf(caption.CodeMalformedBlock, b.startLine, "a %s block after the first cue is not allowed and was ignored", strings.TrimSpace(b.first))
		case isKeywordLine(b.first, "STYLE") || isKeywordLine(b.first, "REGION"):
			p.d.warnf(caption.CodeMalformedBlock, b.startLine, "an empty %s block was ignored", strings.TrimSpace(b.first))
		default:
			// Likely a cue whose timing line is broken: its text is left
			// out, so it is content lost, not a style slip.
			p.d.errorf(caption.CodeMalformedBlock, b.startLine, "a block without a cue timing line was left out: %q", clip(b.first))
		}
		p.skipNewlines()
	}
}

// block is what "collect a WebVTT block" returns, plus what diagnostics
// need to know about a block that turned out to be nothing.
type block struct {
	cue          *rawCue
	style        bool
	region       *rawRegion
	buffer       string
	first        string
	startLine    int
	timingFailed bool
}

// collectBlock is the spec's "collect a WebVTT block". The buffer is kept
// as a span of s: the lines it gathers are always consecutive except
// around a failed timing line, and such a block is discarded anyway.
func (p *parser) collectBlock(inHeader bool) block {
	s := p.s
	b := block{startLine: p.lineNo}
	lineCount := 0
	prevPos, prevLine := p.pos, p.lineNo
	bufStart, bufEnd, bufLine := -1, -1, 0
	buffer := func() string {
		if bufStart < 0 {
			return ""
		}
		return s[bufStart:bufEnd]
	}
	seenArrow := false
	for {
		ls, lineNo := p.pos, p.lineNo
		le := strings.IndexByte(s[ls:], '\n')
		seenEOF := le < 0
		if seenEOF {
			le = len(s)
			p.pos = le
		} else {
			le += ls
			p.pos, p.lineNo = le+1, p.lineNo+1
		}
		line := s[ls:le]
		lineCount++
		if lineCount == 1 {
			b.first = line
		}
		switch {
		case strings.Contains(line, "-->"):
			if inHeader || !(lineCount == 1 || (lineCount == 2 && !seenArrow)) {
				p.pos, p.lineNo = prevPos, prevLine
				seenEOF = true // the block ends here
				break
			}
			seenArrow = true
			prevPos, prevLine = p.pos, p.lineNo
			b.cue = p.newCue(buffer(), line, lineNo, b.startLine)
			if b.cue == nil {
				b.timingFailed = true
			} else {
				bufStart = -1
			}
		case line == "":
			seenEOF = true
		default:
			if !inHeader && lineCount == 2 && !p.seenCue {
				switch {
				case isKeywordLine(buffer(), "STYLE"):
					b.style, bufStart = true, -1
				case isKeywordLine(buffer(), "REGION"):
					b.region, bufStart = newRegion(b.startLine), -1
				}
			}
			if bufStart < 0 {
				bufStart, bufLine = ls, lineNo
			}
			bufEnd = le
			prevPos, prevLine = p.pos, p.lineNo
		}
		if seenEOF {
			break
		}
	}
	b.buffer = buffer()
	if b.cue != nil {
		b.cue.payload, b.cue.payloadLine = b.buffer, bufLine
		b.style, b.region = false, nil
	}
	return b
}

// newCue runs "collect WebVTT cue timings and settings" on a timing line,
// reporting what goes wrong. It returns nil when the timings are invalid.
func (p *parser) newCue(id, line string, lineNo, startLine int) *rawCue {
	tm, why, ok := parseTimings(line)
	if !ok {
		p.d.errorf(caption.CodeInvalidTimestamp, lineNo, "cue skipped: %s: %q", why, clip(line))
		return nil
	}
	p.seenCue = true
	for _, ts := range []timestamp{tm.start, tm.end} {
		if ts.clamped {
			p.d.warnf(caption.CodeNonStandardSyntax, lineNo, "a timestamp has more than %d hours; it was read as %d hours", maxHours, maxHours)
		}
	}
	settings := parseSettings(tm.settings, p.regionByID, func(setting, why string) {
		p.d.warnf(caption.CodeInvalidSetting, lineNo, "cue setting %q: %s", clip(setting), why)
	})
	return &rawCue{id: id, start: tm.start, end: tm.end, settings: settings, line: startLine}
}

func (p *parser) skipNewlines() {
	for p.pos < len(p.s) && p.s[p.pos] == '\n' {
		p.pos++
		p.lineNo++
	}
}

// hasSignature reports whether s starts with the WebVTT file signature.
func hasSignature(s string) bool {
	if !strings.HasPrefix(s, "WEBVTT") {
		return false
	}
	return len(s) == 6 || s[6] == ' ' || s[6] == '\t' || s[6] == '\n'
}

// isKeywordLine reports whether s is the keyword followed only by ASCII
// whitespace, as the spec tests the buffer for STYLE and REGION.
func isKeywordLine(s, keyword string) bool {
	return strings.HasPrefix(s, keyword) && skipSpace(s, len(keyword)) == len(s)
}

// isComment reports whether a block's first line opens a NOTE block.
func isComment(first string) bool {
	return first == "NOTE" || strings.HasPrefix(first, "NOTE ") || strings.HasPrefix(first, "NOTE\t")
}

// normalize applies the spec's preprocessing: CRLF and CR become LF and
// NUL becomes U+FFFD. Text without either is returned as is.
func normalize(s string) string {
	if strings.IndexByte(s, '\r') < 0 && strings.IndexByte(s, 0) < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			sb.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 0:
			sb.WriteString("\uFFFD")
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// clip shortens s for a diagnostic message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}
