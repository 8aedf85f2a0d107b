package scc

import (
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// header is the first line of every SCC file.
const header = "Scenarist_SCC V1.0"

// FrameRate is the frame rate of every SCC file: 30000/1001.
const FrameRate = 30000.0 / 1001.0

// maxShownWords is how many unreadable words a diagnostic quotes.
const maxShownWords = 3

// Parse reads Scenarist SCC captions, decoding CEA-608 channel CC1.
// Problems in the file become diagnostics (see the package documentation):
// invalid_timestamp, malformed_block, parity_error, cues_out_of_order,
// content_not_displayed, non_standard_syntax, invalid_markup and
// unsupported_feature, each with its 1-based line. The error is only ever
// an I/O error.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}

// parser holds the state of one parse.
type parser struct {
	rep reporter
	dec *decoder
	// cursor is the frame after the last pair of the line above, and
	// prev that line's own frame.
	cursor, prev int64
	started      bool
}

func parseText(text string) (*caption.Track, caption.Diagnostics) {
	p := &parser{}
	p.dec = newDecoder(&p.rep)
	lines := caption.SplitLines(text)
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i < len(lines) {
		switch h := strings.TrimSpace(lines[i]); {
		case h == header:
			i++
		case strings.HasPrefix(h, "Scenarist_SCC"):
			p.rep.d.Warn(caption.CodeNonStandardSyntax, i+1, "the header is %q, not %q; the file was read as SCC 1.0", h, header)
			i++
		default:
			p.rep.d.Warn(caption.CodeNonStandardSyntax, i+1, "the file does not start with %q; its lines were read anyway", header)
		}
	}
	for ; i < len(lines); i++ {
		p.line(i+1, lines[i])
	}
	p.dec.finish()
	p.rep.finish()
	return &caption.Track{FrameRate: FrameRate, Cues: p.dec.out.cues}, p.rep.d
}

// line decodes one line: a timecode, then byte pairs as 4 hex digits, one
// pair a frame from the timecode on.
func (p *parser) line(n int, line string) {
	tcText, rest := nextWord(line)
	if tcText == "" {
		return
	}
	tc, problem, ok := parseTimecode(tcText)
	if !ok {
		if looksLikeTimecode(tcText) {
			p.rep.d.Error(caption.CodeInvalidTimestamp, n, "timecode %q could not be read; the line was skipped", tcText)
		} else {
			p.rep.d.Error(caption.CodeMalformedBlock, n, "the line does not start with a timecode; it was skipped")
		}
		return
	}
	if problem != "" {
		p.rep.d.Warn(caption.CodeInvalidTimestamp, n, "%s", problem)
	}
	frame := tc.frame()
	if p.started && frame < p.prev {
		p.rep.d.Warn(caption.CodeCuesOutOfOrder, n, "timecode %s is earlier than the line above's (%s); its codes were taken as following them",
			tcText, formatTimecode(p.prev, tc.drop))
	}
	p.started, p.prev = true, frame
	if frame > p.cursor {
		// Frames without data carry padding, which ends a repeat.
		p.dec.haveLast = false
	}
	frame = max(frame, p.cursor)
	p.dec.line = n
	var bad []string
	words := 0
	for {
		var w string
		if w, rest = nextWord(rest); w == "" {
			break
		}
		f := frame + int64(words)
		words++
		b1, b2, ok := hexPair(w)
		if !ok {
			bad = append(bad, w)
			p.dec.skip(f)
			continue
		}
		p.dec.pair(f, b1, b2)
	}
	p.cursor = frame + int64(words)
	p.dec.endLine()
	if len(bad) > 0 {
		quoted := make([]string, 0, maxShownWords)
		for _, w := range bad[:min(len(bad), maxShownWords)] {
			quoted = append(quoted, "\""+w+"\"")
		}
		more := ""
		if len(bad) > maxShownWords {
			more = ", …"
		}
		verb := "are not 4 hex digits and were skipped"
		if len(bad) == 1 {
			verb = "is not 4 hex digits and was skipped"
		}
		p.rep.d.Error(caption.CodeMalformedBlock, n, "%s %s: %s%s", plural(len(bad), "word"), verb, strings.Join(quoted, ", "), more)
	}
}

// nextWord returns the first word of s, between spaces and tabs, and
// what follows it; "" when s has none.
func nextWord(s string) (word, rest string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j], s[j:]
}

// hexPair reads a word of 4 hex digits as a byte pair.
func hexPair(w string) (b1, b2 byte, ok bool) {
	if len(w) != 4 {
		return 0, 0, false
	}
	var v [4]byte
	for i := range 4 {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			v[i] = c - '0'
		case c >= 'a' && c <= 'f':
			v[i] = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v[i] = c - 'A' + 10
		default:
			return 0, 0, false
		}
	}
	return v[0]<<4 | v[1], v[2]<<4 | v[3], true
}

// looksLikeTimecode reports whether s was meant as a timecode: it starts
// with a digit and has a timecode separator.
func looksLikeTimecode(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9' && strings.ContainsAny(s, ":;")
}
