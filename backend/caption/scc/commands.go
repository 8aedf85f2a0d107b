package scc

import "github.com/captionqa/captionqa/backend/caption"

// The decoder's commands: the miscellaneous control codes, roll-up and
// preamble address codes.

// command runs a miscellaneous control code.
func (d *decoder) command(frame int64, c2 byte) {
	switch c2 {
	case cmdRCL:
		d.flush()
		d.mode = popOn
	case cmdRDC:
		d.flush()
		d.mode = paintOn
	case cmdRU2, cmdRU3, cmdRU4:
		d.rollUpMode(frame, int(c2-cmdRU2)+2)
	case cmdTR, cmdRTD:
		d.flush()
		d.mode = textMode
		if !d.warnedText {
			d.warnedText = true
			d.rep.note(caption.CodeUnsupportedFeature, caption.SeverityInfo, d.line,
				"the file carries a text service (text mode), which is not captions and was not read")
		}
	case cmdBS:
		if d.mode == textMode {
			return
		}
		d.col = max(d.col-1, 0)
		cl := &d.target().cells[d.row][d.col]
		shown := cl.visible()
		*cl = cell{}
		if shown {
			d.changed(frame)
		}
	case cmdDER:
		if d.mode == textMode {
			return
		}
		if d.target().clearFrom(d.row, min(d.col, screenCols-1)) {
			d.changed(frame)
		}
	case cmdCR:
		if d.mode == rollUp {
			d.carriageReturn(frame)
		}
	case cmdEDM:
		d.flush()
		d.displayed().clear()
		d.showDisplay(frame)
	case cmdENM:
		d.eraseUnshown()
	case cmdEOC:
		d.flush()
		d.disp = 1 - d.disp
		d.unshown = false
		d.mode = popOn
		d.showDisplay(frame)
	}
	// FON, AON and AOF change nothing the IR keeps.
}

// eraseUnshown erases the non-displayed memory, reporting text loaded
// into it that was never displayed.
func (d *decoder) eraseUnshown() {
	if d.unshown && !d.nonDisplayed().empty() {
		d.rep.d.Error(caption.CodeContentNotDisplayed, d.unshownLine,
			"caption text loaded from this line was erased before an end-of-caption code displayed it; it was left out")
	}
	d.unshown = false
	d.nonDisplayed().clear()
}

// rollUpMode switches to roll-up with a window of depth rows. Coming from
// pop-on or paint-on, both memories are erased and the cursor goes to the
// start of the bottom row; in roll-up, rows above a smaller window are
// erased.
func (d *decoder) rollUpMode(frame int64, depth int) {
	d.flush()
	if d.mode != rollUp {
		d.displayed().clear()
		d.showDisplay(frame)
		d.eraseUnshown()
		d.base, d.row, d.col = screenRows-1, screenRows-1, 0
		d.rollID++
	} else {
		for r := d.base - d.depth + 1; r <= d.base-depth; r++ {
			if r >= 0 {
				d.displayed().clearRow(r)
			}
		}
		if d.out.open && d.out.roll && d.rollID-d.out.rollID >= depth {
			d.out.close(frame)
		}
	}
	d.mode, d.depth = rollUp, depth
}

// carriageReturn scrolls the roll-up window up a row and starts a new
// line at the start of the bottom row. A line that scrolls out of the
// window ends its cue.
func (d *decoder) carriageReturn(frame int64) {
	d.flush()
	m := d.displayed()
	top := d.base - d.depth + 1
	if top > 0 {
		m.clearRow(top - 1)
	}
	for r := max(top, 0); r < d.base; r++ {
		m.moveRow(r+1, r)
	}
	m.clearRow(d.base)
	d.row, d.col = d.base, 0
	d.rollID++
	if d.out.open && d.out.roll && d.rollID-d.out.rollID >= d.depth {
		d.out.close(frame)
	}
}

// preamble runs a preamble address code: the row, and an indent or the
// text attributes. In roll-up it moves the window to end on that row.
func (d *decoder) preamble(frame int64, c1, c2 byte) {
	row := pacRow[int(c1&7)<<1|int(c2&0x20)>>5]
	if row < 0 {
		d.rep.note(caption.CodeInvalidMarkup, caption.SeverityWarning, d.line,
			"a byte pair is not a CEA-608 character or code; it was ignored")
		return
	}
	r := int(row) - 1
	if d.mode == rollUp {
		r = max(r, d.depth-1)
		if r != d.base {
			d.flush()
			if d.moveWindow(r) {
				d.changed(frame)
			}
		}
	}
	d.row = r
	attr := (c2 & 0x0E) >> 1
	if c2&0x10 != 0 {
		d.col, d.st = int(attr)*4, style{}
	} else {
		d.col, d.st = 0, style{colour: attr}
		if attr == 7 {
			d.st = style{italic: true}
		}
	}
	d.st.underline = c2&1 == 1
}

// moveWindow moves the roll-up window's rows so that it ends on row base,
// and reports whether they show anything (so that the move is seen).
func (d *decoder) moveWindow(base int) (shown bool) {
	m := d.displayed()
	var rows [maxRows][screenCols]cell
	for i := range d.depth {
		if r := d.base - i; r >= 0 {
			_, _, ok := m.rowExtent(r)
			shown = shown || ok
			rows[i] = m.cells[r]
			m.clearRow(r)
		}
	}
	for i := range d.depth {
		if r := base - i; r >= 0 {
			m.cells[r] = rows[i]
			m.used |= 1 << r
		}
	}
	d.base = base
	return shown
}
