package scc

import "math/bits"

// Screen size of a 608 caption display.
const (
	screenRows = 15
	screenCols = 32
	// maxRows is how many rows a caption may use (FCC 79.1 and every
	// decoder's roll-up depth).
	maxRows = 4
)

// Miscellaneous control codes: first byte 0x14 (channel 1; 0x1C on
// channel 2), second byte below. ffmpeg, and encoders that copy field 2
// habits, also use 0x15, which is read the same way.
const (
	cmdRCL = 0x20 // resume caption loading: pop-on
	cmdBS  = 0x21 // backspace
	cmdAOF = 0x22 // reserved (alarm off)
	cmdAON = 0x23 // reserved (alarm on)
	cmdDER = 0x24 // delete to end of row
	cmdRU2 = 0x25 // roll-up, 2 rows
	cmdRU3 = 0x26
	cmdRU4 = 0x27
	cmdFON = 0x28 // flash on
	cmdRDC = 0x29 // resume direct captioning: paint-on
	cmdTR  = 0x2A // text restart: text mode
	cmdRTD = 0x2B // resume text display: text mode
	cmdEDM = 0x2C // erase displayed memory
	cmdCR  = 0x2D // carriage return (roll-up)
	cmdENM = 0x2E // erase non-displayed memory
	cmdEOC = 0x2F // end of caption: flip memories
)

// First bytes of channel 1 codes, parity removed.
const (
	hiMisc     = 0x14 // miscellaneous control codes
	hiMidRow   = 0x11 // mid-row codes (0x20-0x2F) and special characters (0x30-0x3F)
	hiExtended = 0x12 // extended characters, 0x12 and 0x13
	hiTab      = 0x17 // tab offsets (0x21-0x23)
	// hiChannel2 is the bit that moves a code to caption channel 2.
	hiChannel2 = 0x08
)

// withParity returns c (7 bits) with bit 7 set when needed for odd parity,
// as line 21 sends every byte.
func withParity(c byte) byte {
	c &= 0x7F
	if bits.OnesCount8(c)%2 == 0 {
		c |= 0x80
	}
	return c
}

// parityOK reports whether b has odd parity.
func parityOK(b byte) bool { return bits.OnesCount8(b)%2 == 1 }

// pacRow is a read-only table from the row bits of a preamble address
// code to a row, 1 to 15: the index is (first byte & 7) << 1 | (second
// byte & 0x20) >> 5. Index 1 (first byte 0x10 with bit 0x20 set) names no
// row.
var pacRow = [16]int8{11, -1, 1, 2, 3, 4, 12, 13, 14, 15, 5, 6, 7, 8, 9, 10}

// pacFor returns the first byte (channel 1, parity removed) and the row
// bit of the second byte of a preamble address code for row (1 to 15).
func pacFor(row int) (hi, rowBit byte) {
	for i, r := range pacRow {
		if int(r) == row {
			return 0x10 | byte(i>>1), byte(i&1) << 5
		}
	}
	return 0x14, 0x20 // row 15
}

// Colours of 608 text, in the order of the attribute codes.
const (
	colourWhite = iota
	colourGreen
	colourBlue
	colourCyan
	colourRed
	colourYellow
	colourMagenta
	numColours
)

// colourHex is a read-only table of the IR colour ("#rrggbb") of each
// 608 colour; white is the default and makes no span.
var colourHex = [numColours]string{"", "#00ff00", "#0000ff", "#00ffff", "#ff0000", "#ffff00", "#ff00ff"}
