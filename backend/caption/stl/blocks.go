package stl

import (
	"bytes"
	"strconv"
	"strings"
)

// Block sizes of an EBU STL file: one GSI block, then TTI blocks.
const (
	gsiSize = 1024
	ttiSize = 128
)

// Sniff reports whether head, the first bytes of a file, opens an EBU STL
// GSI block: a three-digit code page number, then a disk format code
// "STLnn.01". It looks at the bytes only, as the file is binary.
func Sniff(head []byte) bool {
	if len(head) < 11 {
		return false
	}
	for _, c := range head[:3] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return string(head[3:6]) == "STL" && isDigit(head[6]) && isDigit(head[7]) && string(head[8:11]) == ".01"
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// gsi is what the reader takes from the General Subtitle Information
// block.
type gsi struct {
	cpn string // code page number of the GSI's own text
	dfc string // disk format code: "STL25.01", "STL30.01"
	dsc byte   // display standard code: ' ' or '0' open, '1' and '2' teletext
	cct string // character code table of the text fields: "00" to "04"
	lc  string // language code, two hex digits
	mnr int    // maximum number of displayable rows
	tcs byte   // time code status: '1' intended for use
	tcp string // time code of the programme start, "HHMMSSFF"
	tnb string // total number of TTI blocks
}

// parseGSI reads the fields of a GSI block (1024 bytes).
func parseGSI(b []byte) gsi {
	field := func(from, to int) string { return strings.TrimSpace(string(b[from:to])) }
	g := gsi{
		cpn: field(0, 3), dfc: string(b[3:11]), dsc: b[11], cct: field(12, 14), lc: strings.ToUpper(field(14, 16)),
		tcs: b[255], tcp: field(256, 264), tnb: field(238, 243),
	}
	g.mnr, _ = strconv.Atoi(field(253, 255))
	return g
}

// teletext reports whether the file is for teletext (level 1 or 2).
func (g *gsi) teletext() bool { return g.dsc == '1' || g.dsc == '2' }

// tti is one Text and Timing Information block.
type tti struct {
	sgn      byte   // subtitle group number
	sn       int    // subtitle number
	ebn      byte   // extension block number: 0xFF for the last block
	cs       byte   // cumulative status
	tci, tco [4]int // time code in and out: hours, minutes, seconds, frames
	vp       int    // vertical position
	jc       byte   // justification code
	cf       byte   // comment flag
	tf       []byte // text field, up to its first unused-space code
}

// Extension block numbers and cumulative status values.
const (
	ebnLast       = 0xFF
	ebnUserData   = 0xFE
	ebnReserved   = 0xF0
	csNone        = 0
	csFirst       = 1
	csLast        = 3
	unusedSpace   = 0x8F
	commentMarker = 1
)

// parseTTI reads a TTI block (128 bytes). Its text field ends at the
// first unused-space code: the rest of the field is filler.
func parseTTI(b []byte) tti {
	t := tti{
		sgn: b[0], sn: int(b[1]) | int(b[2])<<8, ebn: b[3], cs: b[4],
		tci: [4]int{int(b[5]), int(b[6]), int(b[7]), int(b[8])},
		tco: [4]int{int(b[9]), int(b[10]), int(b[11]), int(b[12])},
		vp:  int(b[13]), jc: b[14], cf: b[15], tf: b[16:ttiSize],
	}
	if i := bytes.IndexByte(t.tf, unusedSpace); i >= 0 {
		t.tf = t.tf[:i]
	}
	return t
}
