package scc

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// captionMode is the decoder's caption style.
type captionMode uint8

const (
	popOn captionMode = iota
	paintOn
	rollUp
	// textMode is a text service (TR, RTD): its characters are not
	// captions and are not read.
	textMode
)

// holdFrames is how long a caption still displayed when the file ends is
// given at least: 4 s.
const holdFrames = 120

// decoder is a CEA-608 caption decoder for channel CC1. It takes byte
// pairs one frame at a time and tells its cueBuilder what is displayed.
type decoder struct {
	mem  [2]memory
	disp int // index of the displayed memory
	mode captionMode
	// depth and base are the roll-up window: its number of rows and its
	// bottom row (0-based).
	depth, base int
	row, col    int // the cursor; col 32 is past the last column
	st          style
	channel     int // caption channel of the last control code: 1 or 2
	// last is the previous pair when it was a control code: an identical
	// one right after it is the redundant copy and is ignored.
	last     uint16
	haveLast bool

	// rollID counts roll-up lines: each carriage return starts the next.
	rollID int
	// dirty is set when paint-on text changed the display since the last
	// flush, at frame dirtyAt of source line dirtyLine; rollDirty likewise
	// for the roll-up bottom row.
	dirty, rollDirty          bool
	dirtyAt, rollAt           int64
	dirtyLine, rollLine       int
	overflowLine              int  // the last line a row ran past column 32 on
	unshown                   bool // the non-displayed memory holds text never shown
	unshownLine               int
	line                      int   // the source line being decoded
	parity                    int   // bytes of the line that failed the parity check
	end                       int64 // the frame after the last pair
	out                       cueBuilder
	rep                       *reporter
	warnedText, warnedChannel bool
}

func newDecoder(rep *reporter) *decoder {
	return &decoder{rep: rep, channel: 1, base: screenRows - 1, row: screenRows - 1, depth: 2}
}

func (d *decoder) displayed() *memory    { return &d.mem[d.disp] }
func (d *decoder) nonDisplayed() *memory { return &d.mem[1-d.disp] }

// pair decodes the byte pair sent at frame.
func (d *decoder) pair(frame int64, b1, b2 byte) {
	d.end = frame + 1
	c1, c2 := b1&0x7F, b2&0x7F
	if c1 >= 0x10 && c1 <= 0x1F {
		if !parityOK(b1) || !parityOK(b2) {
			// A decoder drops a control code with a parity error whole.
			for _, b := range [2]byte{b1, b2} {
				if !parityOK(b) {
					d.parity++
				}
			}
			d.haveLast = false
			return
		}
		code := uint16(c1)<<8 | uint16(c2)
		if d.haveLast && code == d.last {
			d.haveLast = false
			return
		}
		d.last, d.haveLast = code, true
		d.control(frame, c1, c2)
		return
	}
	d.haveLast = false
	for _, b := range [2]byte{b1, b2} {
		c := b & 0x7F
		switch {
		case c == 0:
			// Padding; a 0x00 byte (parity aside) is padding too.
		case !parityOK(b):
			d.parity++
		case c < 0x20:
			d.rep.note(caption.CodeInvalidMarkup, caption.SeverityWarning, d.line,
				"a byte pair is not a CEA-608 character or code; it was ignored")
		default:
			d.char(frame, basicRune(c))
		}
	}
}

// skip consumes a frame that carries nothing readable.
func (d *decoder) skip(frame int64) {
	d.end = frame + 1
	d.haveLast = false
}

// char writes r at the cursor.
func (d *decoder) char(frame int64, r rune) {
	if d.channel != 1 || d.mode == textMode {
		return
	}
	d.put(frame, cell{ch: r, st: d.st})
}

// put writes c at the cursor and moves the cursor on; at the last column
// it stays, and the next character replaces this one, as on a decoder.
func (d *decoder) put(frame int64, c cell) {
	if d.col == screenCols && d.overflowLine != d.line {
		d.overflowLine = d.line
		d.rep.note(caption.CodeNonStandardSyntax, caption.SeverityWarning, d.line,
			"a row runs past column 32; its last column shows the last character sent past the edge, as on a decoder")
	}
	m, col := d.target(), min(d.col, screenCols-1)
	shows := c.visible() || m.cells[d.row][col].visible()
	m.put(d.row, col, c)
	d.col = min(d.col+1, screenCols)
	if shows {
		d.changed(frame)
	}
}

// target is the memory text goes to: the non-displayed one in pop-on.
func (d *decoder) target() *memory {
	if d.mode == popOn {
		return d.nonDisplayed()
	}
	return d.displayed()
}

// changed records that what the cursor's memory shows changed at frame.
// Only a change a viewer sees counts: a paint-on or roll-up caption
// starts with its first character, not with the codes (a preamble, a
// mid-row code's space) sent before it.
func (d *decoder) changed(frame int64) {
	switch d.mode {
	case popOn:
		if !d.unshown {
			d.unshown, d.unshownLine = true, d.line
		}
	case paintOn:
		if !d.dirty {
			d.dirty, d.dirtyAt, d.dirtyLine = true, frame, d.line
		}
	case rollUp:
		if !d.rollDirty {
			d.rollDirty, d.rollAt, d.rollLine = true, frame, d.line
		}
	}
}

// flush hands what paint-on and roll-up text changed to the cue builder.
func (d *decoder) flush() {
	if d.rollDirty {
		d.rollDirty = false
		d.out.showLine(d.rollAt, d.rollLine, render(d.displayed(), d.base, d.base, &d.out.tb), d.rollID)
	}
	if d.dirty {
		d.dirty = false
		d.out.show(d.dirtyAt, d.dirtyLine, render(d.displayed(), 0, screenRows-1, &d.out.tb))
	}
}

// showDisplay hands the whole display at frame to the cue builder.
func (d *decoder) showDisplay(frame int64) {
	d.out.show(frame, d.line, render(d.displayed(), 0, screenRows-1, &d.out.tb))
}

// control decodes a control pair (parity removed).
func (d *decoder) control(frame int64, c1, c2 byte) {
	d.channel = 1
	if c1&hiChannel2 != 0 {
		d.channel = 2
		if !d.warnedChannel {
			d.warnedChannel = true
			d.rep.note(caption.CodeUnsupportedFeature, caption.SeverityInfo, d.line,
				"the file carries caption channel 2 (CC2), which was not read; CaptionQA reads CC1")
		}
		return
	}
	switch hi := c1; {
	case (hi == hiMisc || hi == hiMisc+1) && c2 >= 0x20 && c2 <= 0x2F:
		d.command(frame, c2)
	case c2 >= 0x40:
		d.preamble(frame, c1, c2)
	case hi == hiMidRow && c2 >= 0x20 && c2 <= 0x2F:
		if d.mode == textMode {
			return
		}
		d.put(frame, cell{ch: ' ', attr: true})
		if c2 < 0x2E {
			d.st = style{colour: (c2 - 0x20) >> 1}
		} else {
			d.st = style{italic: true} // 608 italics are white
		}
		d.st.underline = c2&1 == 1
	case hi == hiMidRow && c2 >= 0x30 && c2 <= 0x3F:
		d.char(frame, special[c2-0x30])
	case (hi == hiExtended || hi == hiExtended+1) && c2 >= 0x20 && c2 <= 0x3F:
		if d.mode != textMode {
			// It replaces the standard character sent before it.
			d.col = max(d.col-1, 0)
		}
		d.char(frame, extended[hi-hiExtended][c2-0x20])
	case hi == hiTab && c2 >= 0x21 && c2 <= 0x23:
		d.col = min(d.col+int(c2-0x20), screenCols)
	case hi == 0x10 && c2 >= 0x20 && c2 <= 0x2F, hi == hiTab && c2 >= 0x2D && c2 <= 0x2F:
		d.rep.note(caption.CodeUnsupportedFeature, caption.SeverityInfo, d.line,
			"background colour and black text attribute codes were ignored")
	default:
		d.rep.note(caption.CodeInvalidMarkup, caption.SeverityWarning, d.line,
			"a byte pair is not a CEA-608 character or code; it was ignored")
	}
}

// endLine ends an SCC line: what paint-on and roll-up text it changed is
// handed over, and bytes that failed the parity check are reported.
func (d *decoder) endLine() {
	d.flush()
	if d.parity > 0 {
		d.rep.d.Error(CodeParityError, d.line, "%s failed the odd parity check; the characters or codes they carry were skipped",
			plural(d.parity, "byte"))
		d.parity = 0
	}
}

// finish ends the file: a caption still displayed ends with the data, or
// 4 s after it started if that is later; text never displayed is
// reported.
func (d *decoder) finish() {
	d.flush()
	if d.out.open {
		end := max(d.end, d.out.start+holdFrames)
		d.rep.d.Warn(caption.CodeNonStandardSyntax, d.out.line,
			"the caption displayed from this line is never erased (no erase or end-of-caption code follows); it was given until %s",
			caption.FormatClock(frameToMs(end)))
		d.out.close(end)
	}
	if d.unshown && !d.nonDisplayed().empty() {
		d.rep.d.Error(caption.CodeContentNotDisplayed, d.unshownLine,
			"caption text loaded from this line is never displayed (no end-of-caption code follows); it was left out")
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
