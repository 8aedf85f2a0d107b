package scc

// pairEncoder builds the byte pairs that load one pop-on caption, with
// odd parity on every byte. Every control code (commands, preamble
// address codes, mid-row codes, tab offsets, special and extended
// characters) is sent twice, as broadcast encoders do: a decoder ignores
// the copy, and a copy that survives a transmission error saves the code.
type pairEncoder struct {
	pairs [][2]byte
	// tied[k] is set when pair k is the copy of pair k-1, which must go
	// on the next frame: a decoder ignores a copy only right after the
	// code, and would run it again after anything else.
	tied    []bool
	pending int // a standard character waiting for its pair, or -1
}

func (e *pairEncoder) control(c1, c2 byte) {
	e.flushText()
	p := [2]byte{withParity(c1), withParity(c2)}
	e.pairs = append(e.pairs, p, p)
	e.tied = append(e.tied, false, true)
}

func (e *pairEncoder) char(c byte) {
	if e.pending < 0 {
		e.pending = int(c)
		return
	}
	e.pairs = append(e.pairs, [2]byte{withParity(byte(e.pending)), withParity(c)})
	e.tied = append(e.tied, false)
	e.pending = -1
}

// flushText sends a waiting character with padding after it.
func (e *pairEncoder) flushText() {
	if e.pending >= 0 {
		e.pairs = append(e.pairs, [2]byte{withParity(byte(e.pending)), 0x80})
		e.tied = append(e.tied, false)
		e.pending = -1
	}
}

func (e *pairEncoder) glyph(g glyph) {
	switch g.kind {
	case specialGlyph:
		e.control(hiMidRow, g.b)
	case extendedGlyph:
		// The standard character first, for decoders without the
		// extended set; the others backspace over it.
		e.char(g.fallback)
		e.control(hiExtended+g.set, g.b)
	default:
		e.char(g.b)
	}
}

// midRowCode is the second byte of the mid-row code for st: a colour, or
// italics (white), with underline.
func midRowCode(st style) byte {
	c := 0x20 + st.colour<<1
	if st.italic {
		c = 0x2E
	}
	if st.underline {
		c |= 1
	}
	return c
}

// loadCaption returns the pairs that load a caption's lines into
// non-displayed memory: RCL, ENM, then per line a preamble address code,
// a tab offset and a mid-row code as needed, and the text. The
// end-of-caption code is the scheduler's.
func loadCaption(lines []line) (pairs [][2]byte, tied []bool) {
	n := 4
	for i := range lines {
		n += 8 + lines[i].r.width()
	}
	e := pairEncoder{pending: -1, pairs: make([][2]byte, 0, n), tied: make([]bool, 0, n)}
	e.control(hiMisc, cmdRCL)
	e.control(hiMisc, cmdENM)
	for i := range lines {
		e.row(lines[i].r, lines[i].at, lines[i].col)
	}
	return e.pairs, e.tied
}

// row sends the pairs that write r on screen row at (1 to 15) from column
// col, and reports whether a style change inside a word had to wait for
// the next space.
//
// A row's column is set by the preamble's indent (a multiple of 4) plus a
// tab offset. A row that starts in colour or italics starts with a
// mid-row code in the column before its text, or, in column 0, with a
// preamble that sets the style. Inside a row a style changes with a
// mid-row code in place of a space; one that changes inside a word waits
// for the next space.
func (e *pairEncoder) row(r *row, at, col int) (moved bool) {
	w := r.width()
	hi, rowBit := pacFor(at)
	st := r.styles[0]
	colourful := st.italic || st.colour != colourWhite
	ul := byte(0)
	if st.underline {
		ul = 1
	}
	switch {
	case colourful && col == 0:
		attr := st.colour
		if st.italic {
			attr = 7
		}
		e.control(hi, 0x40|rowBit|attr<<1|ul)
	default:
		at := col
		if colourful {
			at--
		}
		e.control(hi, 0x40|rowBit|0x10|byte(at/4)<<1|ul)
		if at%4 > 0 {
			e.control(hiTab, 0x20+byte(at%4))
		}
		if colourful {
			e.control(hiMidRow, midRowCode(st))
		}
	}
	for k, g := range r.glyphs {
		if g.r == ' ' && k+1 < w && r.styles[k+1] != st {
			st = r.styles[k+1]
			e.control(hiMidRow, midRowCode(st))
			continue
		}
		if r.styles[k] != st && g.r != ' ' {
			moved = true
		}
		e.glyph(g)
	}
	e.flushText()
	return moved
}

// movesStyle reports whether writing rows moves a style change inside a
// word to the next space; e is scratch space.
func (e *pairEncoder) movesStyle(rows []row) bool {
	moved := false
	for i := range rows {
		e.pending, e.pairs, e.tied = -1, e.pairs[:0], e.tied[:0]
		moved = e.row(&rows[i], screenRows, 0) || moved
	}
	return moved
}

// column returns the first column of a row w columns wide: centred by
// default, or against the left or right edge.
func column(w int, align string) int {
	switch align {
	case "left", "start":
		return 0
	case "right", "end":
		return screenCols - w
	}
	return (screenCols - w) / 2
}
