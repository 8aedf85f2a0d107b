package srt

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// noteKind names a departure that is reported once per file: such notes
// could otherwise repeat on every cue of a long file.
type noteKind int

const (
	noteExtraBlank noteKind = iota
	noteMissingBlank
	noteCoordinates
	noteTrailingText
	noteUnknownTag
	noteUnsupportedTag
	noteOverride
	noteFontAttr
	noteBadColor
	noteQuirk // first of the timing quirks, one kind per quirk bit
	noteKinds = noteQuirk + noteKind(quirkBits)
)

// quirkBits is the number of bits in [quirk].
const quirkBits = 8

// noteCount is where a note's diagnostic sits and how often it occurred.
type noteCount struct {
	index, count int
}

// notes adds once-per-file diagnostics to d and counts repeats.
type notes struct {
	d    *caption.Diagnostics
	seen [noteKinds]noteCount
}

// add reports kind at line the first time it happens and counts the rest.
func (n *notes) add(kind noteKind, code string, sev caption.Severity, line int, msg string) {
	s := &n.seen[kind]
	if s.count == 0 {
		s.index = len(*n.d)
		*n.d = append(*n.d, caption.Diagnostic{Code: code, Severity: sev, Line: line, Message: msg})
	}
	s.count++
}

// repeat counts another occurrence of kind and reports whether it was
// already reported, so that callers build a message only the first time.
func (n *notes) repeat(kind noteKind) bool {
	s := &n.seen[kind]
	if s.count == 0 {
		return false
	}
	s.count++
	return true
}

// quirks reports each quirk bit of q.
func (n *notes) quirks(q quirk, line int) {
	for bit := 0; q != 0; bit, q = bit+1, q>>1 {
		if q&1 != 0 {
			n.add(noteQuirk+noteKind(bit), caption.CodeNonStandardSyntax, caption.SeverityInfo, line, quirkMessages[bit])
		}
	}
}

// finish appends the number of occurrences to notes that repeated.
func (n *notes) finish() {
	for _, s := range n.seen {
		if s.count > 1 {
			(*n.d)[s.index].Message += " (" + strconv.Itoa(s.count) + " times in the file; the first is reported)"
		}
	}
}
