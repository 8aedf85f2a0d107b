package scc

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// CodeParityError is the diagnostic for bytes that fail the odd parity
// check of line 21: the character or code they carry is skipped, as a
// decoder would, so it is an error (content left out).
const CodeParityError = "parity_error"

// reporter collects a parse's diagnostics. Notes that could repeat on
// every line of a file are reported once, on the first line they occur,
// with the number of occurrences added when the parse ends.
type reporter struct {
	d    caption.Diagnostics
	once map[string]*[2]int // message → index in d, count
}

// note reports msg once per file.
func (r *reporter) note(code string, sev caption.Severity, line int, msg string) {
	if n, ok := r.once[msg]; ok {
		n[1]++
		return
	}
	if r.once == nil {
		r.once = map[string]*[2]int{}
	}
	r.once[msg] = &[2]int{len(r.d), 1}
	r.d.Add(code, sev, line, "%s", msg)
}

// finish adds the counts of the notes that occurred more than once.
func (r *reporter) finish() {
	for _, n := range r.once {
		if n[1] > 1 {
			r.d[n[0]].Message += " (" + strconv.Itoa(n[1]) + " times in the file; the first is reported)"
		}
	}
}
