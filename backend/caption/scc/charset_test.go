package scc

import (
	"testing"
	"unicode/utf8"
)

// TestCharacterSets: every 608 character encodes to the code it is read
// from, and every extended character's fallback is a standard character
// that reads as itself.
func TestCharacterSets(t *testing.T) {
	t.Parallel()
	seen := map[rune]bool{}
	check := func(r rune, kind glyphKind, b byte) {
		t.Helper()
		if seen[r] {
			return // the transparent space reads as a space
		}
		seen[r] = true
		g, ok := encodeRune(r)
		if !ok || g.kind != kind || g.b != b || g.r != r {
			t.Errorf("%q encodes as %+v, %v; want kind %d, byte %#x", r, g, ok, kind, b)
		}
	}
	for c := byte(0x20); c <= 0x7F; c++ {
		check(basicRune(c), basicGlyph, c)
	}
	for i, r := range special {
		check(r, specialGlyph, 0x30+byte(i))
	}
	for set := range extended {
		if n := len(extendedFallback[set]); n != 32 {
			t.Fatalf("set %d has %d fallbacks", set, n)
		}
		for i, r := range extended[set] {
			check(r, extendedGlyph, 0x20+byte(i))
			fb := extendedFallback[set][i]
			if basicRune(fb) != rune(fb) {
				t.Errorf("the fallback %q of %q is not a standard character", fb, r)
			}
		}
	}
	if len(seen) != 96+15+64 {
		t.Errorf("%d distinct characters", len(seen))
	}
}

// TestParity checks odd parity on every byte value.
func TestParity(t *testing.T) {
	t.Parallel()
	for c := range 128 {
		b := withParity(byte(c))
		if !parityOK(b) || b&0x7F != byte(c) {
			t.Errorf("withParity(%#x) = %#x", c, b)
		}
		if parityOK(b ^ 0x80) {
			t.Errorf("%#x passes the check with its parity bit flipped", b)
		}
	}
	if withParity(0x14) != 0x94 || withParity(0x20) != 0x20 || withParity(0x2F) != 0x2F || withParity(0x2E) != 0xAE {
		t.Error("the pop-on control codes RCL, EOC and ENM: 9420 942f 94ae")
	}
}

// TestSubstitutes: a character 608 lacks is written as its substitute,
// an invisible one not at all, anything else as the solid block.
func TestSubstitutes(t *testing.T) {
	t.Parallel()
	for r, want := range map[rune]string{
		'ł': "l", 'Œ': "OE", '…': "...", '–': "-", '€': "EUR", '`': "'", '\t': " ", '\u00A0': " ",
		'\u200B': "", '\u0301': "", 'Ω': "█", '😀': "█", 'é': "é", '*': "*", '♪': "♪",
	} {
		gs, _ := textOf(r, nil)
		got := ""
		for _, g := range gs {
			got += string(g.r)
		}
		if got != want {
			t.Errorf("%q is written as %q, want %q", r, got, want)
		}
		for _, g := range gs {
			if e, ok := encodeRune(g.r); !ok || e != g {
				t.Errorf("%q: glyph %+v is not 608's", r, g)
			}
		}
	}
	for r := range rune(0x180) {
		if !utf8.ValidRune(r) {
			continue
		}
		if gs, _ := textOf(r, nil); len(gs) > 3 {
			t.Errorf("%q takes %d columns", r, len(gs))
		}
	}
}

// TestColours: the seven 608 colours, in any case and with an opaque
// alpha, and no other.
func TestColours(t *testing.T) {
	t.Parallel()
	for hex, want := range map[string]uint8{"#ffffff": colourWhite, "#00FF00": colourGreen, "#0000ffff": colourBlue, "#00ffff": colourCyan,
		"#ff0000": colourRed, "#FFFF00": colourYellow, "#ff00ff": colourMagenta} {
		if got, ok := colourOf(hex); !ok || got != want || !HasColour(hex) {
			t.Errorf("colourOf(%q) = %d, %v; want %d", hex, got, ok, want)
		}
	}
	for _, hex := range []string{"", "#000000", "#ff000080", "#ffa500", "red", "#f00"} {
		if HasColour(hex) {
			t.Errorf("%q is a 608 colour", hex)
		}
	}
}
