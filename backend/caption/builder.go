package caption

import (
	"strings"
	"unicode/utf8"
)

// TextBuilder assembles a cue's Text and Spans from styled runs, so that
// every reader turns its markup into spans the same way: runs with the same
// style merge, unstyled runs make no span, and offsets count code points.
type TextBuilder struct {
	sb    strings.Builder
	runes int
	spans []Span
}

// Write appends s styled as style (its Start and End are ignored).
func (b *TextBuilder) Write(s string, style Span) {
	if s == "" {
		return
	}
	n := utf8.RuneCountInString(s)
	b.sb.WriteString(s)
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

func sameStyle(a, b Span) bool {
	a.Start, a.End = 0, 0
	return a == b
}

// Len returns the number of code points written so far.
func (b *TextBuilder) Len() int { return b.runes }

// Grow makes room for n more bytes of text.
func (b *TextBuilder) Grow(n int) { b.sb.Grow(n) }

// Reset empties the builder for the next cue. The span buffer is kept:
// [TextBuilder.Build] hands out copies.
func (b *TextBuilder) Reset() {
	b.sb.Reset()
	b.runes = 0
	b.spans = b.spans[:0]
}

// Build returns the text without trailing line breaks and the spans,
// clipped to it.
func (b *TextBuilder) Build() (string, []Span) {
	text := strings.TrimRight(b.sb.String(), "\n")
	n := b.runes - (b.sb.Len() - len(text))
	spans := b.spans[:0:0]
	for _, s := range b.spans {
		if s.End > n {
			s.End = n
		}
		if s.Start < s.End {
			spans = append(spans, s)
		}
	}
	if len(spans) == 0 {
		spans = nil
	}
	return text, spans
}
