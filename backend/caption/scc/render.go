package scc

import (
	"slices"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// shown is what a memory, or a row of it, shows: the cue text, its spans
// and placement.
type shown struct {
	text      string
	spans     []caption.Span
	placement *caption.Placement
	// at is where the text is: the row and first column of each line.
	at string
}

// same reports whether s and o show the same thing in the same place.
func (s *shown) same(o *shown) bool {
	return s.text == o.text && s.at == o.at && slices.Equal(s.spans, o.spans) && placementEqual(s.placement, o.placement)
}

func placementEqual(a, b *caption.Placement) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// render returns what rows from to to (0-based, inclusive) of m show: a
// line per row that shows something, from its first visible character to
// its last; an empty position or a mid-row code's space inside a line
// reads as a space.
func render(m *memory, from, to int, b *caption.TextBuilder) shown {
	b.Reset()
	var ext [screenRows][2]int
	var at [2 * screenRows]byte
	lines, top, bottom := 0, 0, 0
	for r := from; r <= to; r++ {
		first, last, ok := m.rowExtent(r)
		if !ok {
			continue
		}
		if lines > 0 {
			b.Write("\n", caption.Span{})
		} else {
			top = r
		}
		ext[lines] = [2]int{first, last}
		at[2*lines], at[2*lines+1] = byte(r), byte(first)
		lines++
		bottom = r
		// Cells of one style are written as one run.
		var run []byte
		var runStyle style
		plain := true // the run is unstyled: blanks and mid-row spaces
		flush := func() {
			if len(run) > 0 {
				st := caption.Span{}
				if !plain {
					st = spanStyle(runStyle)
				}
				b.Write(string(run), st)
				run = run[:0]
			}
		}
		row := &m.cells[r]
		for c := first; c <= last; c++ {
			cl := &row[c]
			blank := cl.ch == 0 || cl.attr
			if blank != plain || !blank && cl.st != runStyle {
				flush()
				plain, runStyle = blank, cl.st
			}
			if blank {
				run = append(run, ' ')
			} else {
				run = utf8.AppendRune(run, cl.ch)
			}
		}
		flush()
	}
	var s shown
	if lines == 0 {
		return s
	}
	s.text, s.spans = b.Build()
	s.at = string(at[:2*lines])
	p := caption.Placement{Align: alignment(ext[:lines])}
	// The rows are thirds of the screen: a caption whose middle is in
	// rows 1-5 is at the top, rows 6-10 the middle, rows 11-15 the bottom
	// (the default, which needs no placement).
	switch mid := top + bottom; {
	case mid < 10:
		p.Area = caption.AreaTop
	case mid < 20:
		p.Area = caption.AreaMiddle
	}
	if !p.IsZero() {
		s.placement = &p
	}
	return s
}

// spanStyle is the span of a 608 style; white upright text makes none.
func spanStyle(st style) caption.Span {
	return caption.Span{Italic: st.italic, Underline: st.underline, Color: colourHex[st.colour]}
}

// alignment derives the text alignment from the first and last visible
// columns of each line, when the layout shows one: every line centred
// (margins within a column of each other), every line against the right
// edge, or every line starting in the same column. Lines of 30 columns or
// more fit any alignment and say nothing; "" when nothing is clear.
func alignment(ext [][2]int) string {
	centred, right, left, n := true, true, true, 0
	firstCol := -1
	for _, e := range ext {
		first, last := e[0], e[1]
		if last-first+1 >= 30 {
			continue
		}
		n++
		rightMargin := screenCols - 1 - last
		centred = centred && abs(first-rightMargin) <= 1
		right = right && rightMargin <= 1 && first > 1
		if firstCol < 0 {
			firstCol = first
		}
		left = left && first == firstCol
	}
	switch {
	case n == 0:
		return ""
	case centred:
		return "center"
	case right:
		return "right"
	case left:
		return "left"
	}
	return ""
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
