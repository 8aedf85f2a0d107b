package stl

import (
	"bytes"
	"fmt"
)

// The golden inputs are built here, byte by byte, so that each can be
// read and changed as source: TestGoldenInputs checks that
// testdata/<case>.in.stl holds what goldenFiles builds (-update rewrites
// them).

// gsiSpec holds the GSI fields the tests set; the rest are spaces.
type gsiSpec struct {
	cpn, dfc  string
	dsc       byte
	cct, lc   string
	mnr       string
	tcs       byte
	tcp       string
	tnb       string // "" writes the number of blocks the file has
	title     string
	truncated int // bytes cut from the end of the file
}

// ttiSpec is one TTI block.
type ttiSpec struct {
	sgn      byte
	sn       int
	ebn      byte
	cs       byte
	tci, tco [4]byte
	vp, jc   byte
	cf       byte
	tf       []byte
}

// defaultGSI is a 25 fps teletext file in the Latin table, in English.
func defaultGSI() gsiSpec {
	return gsiSpec{cpn: "850", dfc: "STL25.01", dsc: '1', cct: "00", lc: "09", mnr: "23", tcs: '1', tcp: "00000000"}
}

// buildSTL returns an EBU STL file of a GSI block and TTI blocks.
func buildSTL(g gsiSpec, ttis []ttiSpec) []byte {
	gsi := bytes.Repeat([]byte{' '}, gsiSize)
	put := func(at int, s string) { copy(gsi[at:], s) }
	put(0, g.cpn)
	put(3, g.dfc)
	gsi[11] = g.dsc
	put(12, g.cct)
	put(14, g.lc)
	put(16, g.title)
	tnb := g.tnb
	if tnb == "" {
		tnb = fmt.Sprintf("%05d", len(ttis))
	}
	put(238, tnb)
	put(243, fmt.Sprintf("%05d", len(ttis)))
	put(248, "001")
	put(251, "40")
	put(253, g.mnr)
	gsi[255] = g.tcs
	put(256, g.tcp)
	put(264, g.tcp)
	put(272, "11")
	out := gsi
	for _, t := range ttis {
		b := make([]byte, ttiSize)
		b[0], b[1], b[2], b[3], b[4] = t.sgn, byte(t.sn), byte(t.sn>>8), t.ebn, t.cs
		copy(b[5:9], t.tci[:])
		copy(b[9:13], t.tco[:])
		b[13], b[14], b[15] = t.vp, t.jc, t.cf
		tf := b[16:]
		for i := range tf {
			tf[i] = unusedSpace
		}
		copy(tf, t.tf)
		out = append(out, b...)
	}
	return out[:len(out)-g.truncated]
}

// tc is a time code: hours, minutes, seconds, frames.
func tc(h, m, s, f byte) [4]byte { return [4]byte{h, m, s, f} }

// sub is a lone subtitle (last block, no cumulative set) at the bottom,
// centred.
func sub(sn int, in, out [4]byte, tf []byte) ttiSpec {
	return ttiSpec{sn: sn, ebn: ebnLast, tci: in, tco: out, vp: 20, jc: 2, tf: tf}
}

// text returns its arguments as bytes: strings as they are, bytes and
// ints as one byte each.
func text(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b = append(b, v...)
		case byte:
			b = append(b, v)
		case int:
			b = append(b, byte(v))
		}
	}
	return b
}

// goldenFiles are the golden inputs by case name.
func goldenFiles() map[string][]byte {
	files := map[string][]byte{}
	g := defaultGSI()

	// Table 00: diacritical marks on the letter after them, single-byte
	// characters, a mark with no precomposed letter, a lone mark, bytes
	// the table leaves undefined; italics, underline, teletext colours
	// and boxes, double height, line breaks.
	files["latin"] = buildSTL(g, []ttiSpec{
		sub(1, tc(0, 0, 1, 0), tc(0, 0, 3, 0), text(0x0B, 0x0B, "Caf", 0xC2, "e cr", 0xC3, "eme, se", 0xC4, "nor, M", 0xC8, "uller", 0x8A, 0x0B, 0x0B, 0xCF, "Cesk", 0xC2, "y, ", 0xCA, "Angstr", 0xC8, "om, ", 0xCD, "o ", 0xCE, "a ", 0xCB, "c")),
		sub(2, tc(0, 0, 4, 0), tc(0, 0, 6, 12), text(0xA9, "Quote", 0xB9, " ", 0xAA, "quote", 0xBA, " ", 0xD0, " ", 0xD5, " ", 0xE9, 0xF9, 0xFB, 0xF8, " ", 0xA4, "5 ", 0xA3, "3 ", 0xBD, " ", 0xC2, " acute")),
		sub(3, tc(0, 0, 7, 0), tc(0, 0, 9, 0), text("Plain ", 0x80, "italic", 0x81, " and ", 0x82, "underlined", 0x83, 0x8A, 0x80, "italic line")),
		sub(4, tc(0, 0, 10, 0), tc(0, 0, 12, 0), text(0x0D, 0x01, 0x0B, 0x0B, "Red", 0x07, "white", 0x03, "yellow", 0x8A, 0x8A, 0x0D, 0x04, 0x1D, 0x07, 0x0B, 0x0B, "White on blue", 0x1C, "black box", 0x0A, 0x0A)),
		sub(5, tc(0, 0, 13, 0), tc(0, 0, 15, 0), text("Undefined ", 0xC0, " ", 0xE5, " and q", 0xC2, "q ", 0x7F)),
	})

	// Extension blocks, a user data block, a comment, a subtitle whose
	// extension blocks end without a last one, and a cumulative set.
	ext := func(sn int, ebn byte, in, out [4]byte, tf []byte) ttiSpec {
		t := sub(sn, in, out, tf)
		t.ebn = ebn
		return t
	}
	comment := sub(3, tc(0, 0, 7, 0), tc(0, 0, 8, 0), text("A comment, not shown"))
	comment.cf = 1
	cumulative := func(sn int, cs byte, in [4]byte, vp byte, tf string) ttiSpec {
		t := sub(sn, in, tc(0, 0, 20, 0), text(tf))
		t.cs, t.vp = cs, vp
		return t
	}
	files["blocks"] = buildSTL(g, []ttiSpec{
		ext(1, 0x00, tc(0, 0, 1, 0), tc(0, 0, 3, 0), text("Text that goes ")),
		ext(1, 0x01, tc(0, 0, 1, 0), tc(0, 0, 3, 0), text("on over ")),
		ext(1, ebnLast, tc(0, 0, 1, 0), tc(0, 0, 3, 0), text("three blocks")),
		ext(2, ebnUserData, tc(0, 0, 0, 0), tc(0, 0, 0, 0), text("user data")),
		sub(2, tc(0, 0, 4, 0), tc(0, 0, 6, 0), text("After the user data")),
		comment,
		ext(4, 0x00, tc(0, 0, 9, 0), tc(0, 0, 11, 0), text("Extension without its last block")),
		sub(5, tc(0, 0, 12, 0), tc(0, 0, 14, 0), text("Next subtitle")),
		cumulative(6, csFirst, tc(0, 0, 15, 0), 16, "First part"),
		cumulative(7, 2, tc(0, 0, 16, 0), 18, "second part"),
		cumulative(8, csLast, tc(0, 0, 17, 0), 20, "last part"),
	})

	// Justification codes and vertical positions, teletext and open.
	placed := func(sn int, vp, jc byte, tf []byte) ttiSpec {
		t := sub(sn, tc(0, 0, byte(sn), 0), tc(0, 0, byte(sn), 20), tf)
		t.vp, t.jc = vp, jc
		return t
	}
	files["placement"] = buildSTL(g, []ttiSpec{
		placed(1, 1, 1, text("Top left")),
		placed(2, 12, 2, text("Middle centre")),
		placed(3, 22, 3, text("Bottom right")),
		placed(4, 18, 0, text(0x0D, "Double", 0x8A, 0x8A, 0x0D, "height", 0x8A, 0x8A, 0x0D, "rows")),
		placed(5, 0, 2, text("Row 0 is no teletext row")),
	})
	open := defaultGSI()
	open.dsc, open.mnr = '0', "11"
	files["open"] = buildSTL(open, []ttiSpec{
		placed(1, 0, 1, text("Open subtitle, top row")),
		placed(2, 5, 2, text("Open, middle")),
		placed(3, 10, 3, text("Open, bottom")),
	})

	// 30 fps time codes name 29.97 fps frames; times count from the
	// programme start (TCP 01:00:00:00).
	ntsc := defaultGSI()
	ntsc.dfc, ntsc.tcp, ntsc.tnb = "STL30.01", "01000000", "00009"
	files["programme"] = buildSTL(ntsc, []ttiSpec{
		sub(1, tc(0, 59, 50, 0), tc(0, 59, 55, 0), text("Before the programme")),
		sub(2, tc(0, 59, 59, 0), tc(1, 0, 2, 0), text("Across the programme start")),
		sub(3, tc(1, 0, 3, 0), tc(1, 0, 5, 15), text("On the programme clock")),
		sub(4, tc(1, 0, 6, 0), tc(1, 0, 6, 45), text("Frames out of range")),
		sub(5, tc(1, 0, 9, 0), tc(1, 0, 8, 0), text("Ends before it starts")),
		sub(6, tc(2, 0, 0, 0), tc(2, 0, 1, 0), text("An hour in: 0.1% late on the clock")),
	})
	// Every subtitle ends before TCP: the file's clock is not the
	// programme's, and TCP is ignored.
	late := defaultGSI()
	late.tcp = "10000000"
	files["tcp_ignored"] = buildSTL(late, []ttiSpec{
		sub(1, tc(0, 1, 39, 0), tc(0, 1, 41, 1), text("At 99 seconds")),
		sub(2, tc(0, 2, 4, 2), tc(0, 2, 7, 3), text("At 124 seconds")),
	})

	// The other character code tables.
	tables := map[string][]byte{
		"01": text("Cyrillic: ", 0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2, " ", 0xA1, 0xF0),
		"02": text("Arabic: ", 0xE5, 0xD1, 0xCD, 0xC8, 0xC7, 0xAC, " ", 0xA5),
		"03": text("Greek: ", 0xCA, 0xE1, 0xEB, 0xE7, 0xEC, 0xDD, 0xF1, 0xE1, " ", 0xD2),
		"04": text("Hebrew: ", 0xF9, 0xEC, 0xE5, 0xED, " ", 0xA1),
	}
	for cct, tf := range tables {
		gs := defaultGSI()
		gs.cct, gs.lc = cct, map[string]string{"01": "56", "02": "7E", "03": "70", "04": "6C"}[cct]
		files["table"+cct] = buildSTL(gs, []ttiSpec{sub(1, tc(0, 0, 1, 0), tc(0, 0, 3, 0), tf)})
	}

	// What the reader cannot use, and broken files.
	odd := defaultGSI()
	odd.dfc, odd.cct, odd.dsc, odd.tcs, odd.tcp, odd.lc = "STL99.01", "07", 'X', '0', "1O000000", "99"
	files["unknown_codes"] = buildSTL(odd, []ttiSpec{sub(1, tc(0, 0, 1, 0), tc(0, 0, 2, 0), text("Read anyway"))})
	cut := defaultGSI()
	cut.truncated = 100
	files["truncated"] = buildSTL(cut, []ttiSpec{
		sub(1, tc(0, 0, 1, 0), tc(0, 0, 2, 0), text("Whole")),
		sub(2, tc(0, 0, 3, 0), tc(0, 0, 4, 0), text("Cut off")),
	})
	files["short"] = buildSTL(defaultGSI(), nil)[:600]
	files["not_stl"] = []byte("1\n00:00:01,000 --> 00:00:02,000\nAn SRT file read as EBU STL\n" + string(bytes.Repeat([]byte{' '}, 1100)))
	return files
}
