package caption

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// TextBuilder assembles a cue's Text and Spans from styled runs, so that
// every reader turns its markup into spans the same way: runs with the same
// style merge, unstyled runs make no span, and offsets count code points.
//
// A builder reused from cue to cue hands out its texts and spans from
// shared chunks instead of allocating each cue's: bytes and spans it has
// handed out are never written again, and a full chunk is replaced, not
// reused, so every text and span slice it returned stays valid.
type TextBuilder struct {
	buf   []byte // the current chunk; the cue's text is buf[start:]
	start int
	runes int
	spans []Span
	out   []Span // the span chunk Build hands out from
}

// Size bounds of a text chunk: the first is small, so that a builder used
// for one cue costs little; later ones double up to the largest.
const (
	minTextChunk = 256
	maxTextChunk = 64 << 10
	maxSpanChunk = 256
)

// Write appends s styled as style (its Start and End are ignored).
func (b *TextBuilder) Write(s string, style Span) {
	if s == "" {
		return
	}
	n := utf8.RuneCountInString(s)
	b.appendText(s)
	start := b.runes
	b.runes += n
	style.Start, style.End = 0, 0
	if style == (Span{}) {
		return
	}
	if k := len(b.spans) - 1; k >= 0 && b.spans[k].End == start && sameStyle(b.spans[k], style) {
		b.spans[k].End = b.runes
		return
	}
	style.Start, style.End = start, b.runes
	b.spans = append(b.spans, style)
}

// appendText adds s to the cue's text, moving the text to a new chunk
// when the current one is full.
func (b *TextBuilder) appendText(s string) {
	if len(b.buf)+len(s) > cap(b.buf) {
		b.grow(len(s))
	}
	b.buf = append(b.buf, s...)
}

// grow starts a new chunk with room for the cue's text so far and n more
// bytes. The old chunk is left as it is: strings point into it.
func (b *TextBuilder) grow(n int) {
	cur := b.buf[b.start:]
	size := min(max(2*cap(b.buf), minTextChunk), maxTextChunk)
	size = max(size, 2*(len(cur)+n))
	nb := make([]byte, len(cur), size)
	copy(nb, cur)
	b.buf, b.start = nb, 0
}

func sameStyle(a, b Span) bool {
	a.Start, a.End = 0, 0
	return a == b
}

// Len returns the number of code points written so far.
func (b *TextBuilder) Len() int { return b.runes }

// Grow makes room for n more bytes of text.
func (b *TextBuilder) Grow(n int) {
	if len(b.buf)+n > cap(b.buf) {
		b.grow(n)
	}
}

// Reset empties the builder for the next cue. The buffers are kept:
// [TextBuilder.Build] hands out parts of them that are never written again.
func (b *TextBuilder) Reset() {
	b.start = len(b.buf)
	b.runes = 0
	b.spans = b.spans[:0]
}

// Build returns the text without trailing line breaks and the spans,
// clipped to it.
func (b *TextBuilder) Build() (string, []Span) {
	var text string
	if cur := b.buf[b.start:]; len(cur) > 0 {
		// The bytes are never written again: Write appends after them and
		// Reset moves past them.
		text = strings.TrimRight(unsafe.String(&cur[0], len(cur)), "\n")
	}
	n := b.runes - (len(b.buf) - b.start - len(text))
	kept := 0
	for _, s := range b.spans {
		if min(s.End, n) > s.Start {
			kept++
		}
	}
	if kept == 0 {
		return text, nil
	}
	if len(b.out)+kept > cap(b.out) {
		b.out = make([]Span, 0, max(kept, min(2*cap(b.out)+1, maxSpanChunk)))
	}
	first := len(b.out)
	for _, s := range b.spans {
		if s.End > n {
			s.End = n
		}
		if s.Start < s.End {
			b.out = append(b.out, s)
		}
	}
	// A full slice expression, so that appending to the spans copies them.
	return text, b.out[first:len(b.out):len(b.out)]
}
