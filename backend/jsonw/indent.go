package jsonw

import (
	"bytes"
	"io"
)

// Indenter re-indents compact JSON as it is written through it, for a
// person reading a result: each element of an object or array on its own
// line, indented one step per level, a space after each colon, empty
// objects and arrays kept as {} and []. Its output is byte for byte what
// json.Indent makes of the same JSON with an empty prefix, but it streams:
// an [Encoder] writes into it, and it writes on to w through a small
// buffer, so a result of tens of megabytes is never held whole, and it
// costs one pass over the bytes where encoding/json's indenting encoder
// builds the document, then copies it while indenting. Whitespace
// between tokens is dropped; the JSON itself is not checked. The first
// write error stops all further writes and is returned by every later
// Write and by [Indenter.Flush].
type Indenter struct {
	w      io.Writer
	indent string
	buf    []byte
	// nl is a line break followed by the indent of each level so far.
	nl    []byte
	depth int
	// inString: inside a string; escaped: just after its backslash.
	inString, escaped bool
	// opened: an object or array has just begun; whether a line break
	// follows depends on whether the next token closes it.
	opened bool
	err    error
}

// NewIndenter returns an Indenter writing to w, indenting each level by
// indent (two spaces, say).
func NewIndenter(w io.Writer, indent string) *Indenter {
	return &Indenter{w: w, indent: indent, buf: make([]byte, 0, flushAt+flushAt/4), nl: []byte{'\n'}}
}

// Flush writes what is buffered and returns the first write error.
func (d *Indenter) Flush() error {
	if d.err == nil && len(d.buf) > 0 {
		_, d.err = d.w.Write(d.buf)
	}
	d.buf = d.buf[:0]
	return d.err
}

// Write indents p, the next bytes of the JSON, and writes what it has
// buffered on to the underlying writer whenever that passes flushAt. A
// token may be cut anywhere between two writes.
func (d *Indenter) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	// The next quote and backslash at or after i (len(p) when there is
	// none; -1 before the first look): each is looked for again only
	// once i has passed it, so a long string full of escaped line breaks
	// is read once.
	quote, backslash := -1, -1
	i := 0
	for i < len(p) {
		if d.inString {
			// Runs without a quote or a backslash, most of a caption
			// file's text, are found with bytes.IndexByte and copied whole.
			if d.escaped {
				d.escaped = false
				d.copy(p[i : i+1])
				i++
				continue
			}
			if quote < i {
				quote = indexFrom(p, i, '"')
			}
			if backslash < i {
				backslash = indexFrom(p, i, '\\')
			}
			stop := min(quote, backslash)
			if stop == len(p) {
				d.copy(p[i:])
				break
			}
			d.copy(p[i : stop+1])
			i = stop + 1
			if p[stop] == '\\' {
				d.escaped = true
			} else {
				d.inString = false
			}
			continue
		}
		c := p[i]
		i++
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if d.opened {
			d.opened = false
			if c == '}' || c == ']' {
				// Empty: {} or [], as json.Indent writes it.
				d.depth--
				d.buf = append(d.buf, c)
				continue
			}
			d.buf = append(d.buf, d.line()...)
		}
		switch c {
		case '{', '[':
			d.buf = append(d.buf, c)
			d.depth++
			d.opened = true
		case ',':
			d.buf = append(d.buf, c)
			d.buf = append(d.buf, d.line()...)
		case ':':
			d.buf = append(d.buf, ':', ' ')
		case '}', ']':
			d.depth--
			d.buf = append(d.buf, d.line()...)
			d.buf = append(d.buf, c)
		case '"':
			d.buf = append(d.buf, c)
			d.inString = true
		default:
			d.buf = append(d.buf, c)
		}
		if len(d.buf) >= flushAt {
			if d.Flush() != nil {
				return i, d.err
			}
		}
	}
	if len(d.buf) >= flushAt {
		_ = d.Flush()
	}
	return len(p), d.err
}

// indexFrom returns the index of the first c in p at or after i, len(p)
// when there is none.
func indexFrom(p []byte, i int, c byte) int {
	if k := bytes.IndexByte(p[i:], c); k >= 0 {
		return i + k
	}
	return len(p)
}

// copy appends s to the buffer; a long s is written straight through,
// after what is buffered.
func (d *Indenter) copy(s []byte) {
	if len(d.buf)+len(s) > cap(d.buf) {
		_ = d.Flush()
		if len(s) >= flushAt {
			if d.err == nil {
				_, d.err = d.w.Write(s)
			}
			return
		}
	}
	d.buf = append(d.buf, s...)
}

// line returns a line break and the indent of the current depth (none
// below the top level, where JSON that closes more than it opened puts
// it).
func (d *Indenter) line() []byte {
	want := 1 + max(d.depth, 0)*len(d.indent)
	for len(d.nl) < want {
		d.nl = append(d.nl, d.indent...)
	}
	return d.nl[:want]
}
