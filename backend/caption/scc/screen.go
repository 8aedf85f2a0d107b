package scc

// style is the attribute set of 608 text: a colour, or italics (which 608
// draws white), and underline.
type style struct {
	colour    uint8
	italic    bool
	underline bool
}

// cell is one character position of a caption memory.
type cell struct {
	// ch is the character shown; 0 is an empty (transparent) position.
	ch rune
	st style
	// attr marks the space a mid-row code leaves: it shows as a space and
	// carries no styling of its own.
	attr bool
}

// visible reports whether the cell shows a character other than a space.
func (c *cell) visible() bool { return c.ch != 0 && c.ch != ' ' && !c.attr }

// memory is one of the decoder's two caption memories: 15 rows of 32
// columns. used has bit r set when row r may hold something, so that
// clearing and reading cost what the caption holds, not the whole screen.
type memory struct {
	cells [screenRows][screenCols]cell
	used  uint16
}

func (m *memory) put(row, col int, c cell) {
	m.cells[row][col] = c
	m.used |= 1 << row
}

func (m *memory) clear() {
	for r := range screenRows {
		if m.used&(1<<r) != 0 {
			m.cells[r] = [screenCols]cell{}
		}
	}
	m.used = 0
}

func (m *memory) clearRow(r int) {
	if m.used&(1<<r) != 0 {
		m.cells[r] = [screenCols]cell{}
		m.used &^= 1 << r
	}
}

// clearFrom empties row r from column col to its end, and reports
// whether that erased anything shown.
func (m *memory) clearFrom(r, col int) (shown bool) {
	for c := col; c < screenCols; c++ {
		shown = shown || m.cells[r][c].visible()
		m.cells[r][c] = cell{}
	}
	return shown
}

// moveRow moves row from to row to, leaving from empty.
func (m *memory) moveRow(from, to int) {
	if from == to {
		return
	}
	m.clearRow(to)
	if m.used&(1<<from) != 0 {
		m.cells[to] = m.cells[from]
		m.used |= 1 << to
		m.clearRow(from)
	}
}

// rowExtent returns the first and last visible columns of row r, ok false
// when it shows nothing.
func (m *memory) rowExtent(r int) (first, last int, ok bool) {
	if m.used&(1<<r) == 0 {
		return 0, 0, false
	}
	row := &m.cells[r]
	first = -1
	for c := range screenCols {
		if row[c].visible() {
			if first < 0 {
				first = c
			}
			last = c
		}
	}
	return first, last, first >= 0
}

// empty reports whether the memory shows nothing.
func (m *memory) empty() bool {
	for r := range screenRows {
		if _, _, ok := m.rowExtent(r); ok {
			return false
		}
	}
	return true
}
