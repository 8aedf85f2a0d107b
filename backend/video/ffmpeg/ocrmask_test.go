package ffmpeg

import (
	"testing"
)

// synth paints a synthetic 4:2:0 band for the binariser and segmenter
// tests: flat backgrounds, glyphs (a filled rectangle ringed by a black
// outline), bare bright areas.
type synth struct {
	w, h    int
	y, u, v []byte
}

// Colours as (Y, U, V), BT.601 limited range.
var (
	synthBlack  = [3]byte{16, 128, 128}
	synthWhite  = [3]byte{235, 128, 128}
	synthYellow = [3]byte{210, 16, 146}
	synthCyan   = [3]byte{170, 166, 16}
	synthRed    = [3]byte{81, 90, 240}
	synthGrey   = [3]byte{120, 128, 128}
)

func newSynth(w, h int, bg [3]byte) *synth {
	s := &synth{w: w, h: h, y: make([]byte, w*h), u: make([]byte, ((w+1)/2)*((h+1)/2)), v: make([]byte, ((w+1)/2)*((h+1)/2))}
	s.rect(0, 0, w, h, bg)
	return s
}

// rect paints [x0, x1) × [y0, y1) in c (chroma by the 2×2 blocks whose
// top-left pixel is inside).
func (s *synth) rect(x0, y0, x1, y1 int, c [3]byte) {
	cw := (s.w + 1) / 2
	for y := max(y0, 0); y < min(y1, s.h); y++ {
		for x := max(x0, 0); x < min(x1, s.w); x++ {
			s.y[y*s.w+x] = c[0]
			if x%2 == 0 && y%2 == 0 {
				s.u[(y/2)*cw+x/2], s.v[(y/2)*cw+x/2] = c[1], c[2]
			}
		}
	}
}

// glyph paints a glyph: fill [x0, x1) × [y0, y1) in c inside a black
// outline o pixels wide.
func (s *synth) glyph(x0, y0, x1, y1, o int, c [3]byte) {
	s.rect(x0-o, y0-o, x1+o, y1+o, synthBlack)
	s.rect(x0, y0, x1, y1, c)
}

// frame returns the band as ffmpeg sends it, in a fresh buffer.
func (s *synth) frame() []byte {
	out := make([]byte, 0, bandSize(s.w, s.h))
	out = append(out, s.y...)
	out = append(out, s.u...)
	return append(out, s.v...)
}

// binarise runs a binariser for frames of height frameH over s.
func binarise(s *synth, frameH int) (mask []byte, ink int, box ocrBox) {
	b := newBinariser(frameH, false)
	f := asBand(s.frame(), s.w, s.h)
	mask = make([]byte, s.w*s.h)
	ink = b.mask(&f, mask)
	return mask, ink, b.inkBox
}

// inkIn counts the ink inside [x0, x1) × [y0, y1).
func inkIn(mask []byte, w, x0, y0, x1, y1 int) int {
	n := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			n += int(mask[y*w+x])
		}
	}
	return n
}

func TestBinariserGlyphs(t *testing.T) {
	t.Parallel()
	const w, h = 203, 60 // an odd width: rows are not word-aligned
	cases := []struct {
		name  string
		paint func(s *synth)
		// want is the ink expected in each of the boxes (x0, y0, x1, y1).
		want  []int
		boxes [][4]int
	}{
		{"white on grey", func(s *synth) { s.glyph(20, 20, 26, 44, 2, synthWhite) },
			[]int{6 * 24}, [][4]int{{20, 20, 26, 44}}},
		{"yellow on its own colour", func(s *synth) {
			s.rect(0, 0, w, h, synthYellow)
			s.glyph(20, 20, 26, 44, 2, synthYellow)
		}, []int{6 * 24, 0}, [][4]int{{20, 20, 26, 44}, {40, 0, w, h}}},
		{"white on red", func(s *synth) {
			s.rect(0, 0, w, h, synthRed)
			s.glyph(20, 20, 26, 44, 2, synthWhite)
		}, []int{6 * 24}, [][4]int{{20, 20, 26, 44}}},
		{"bright area without outline", func(s *synth) { s.rect(30, 10, 60, 50, synthWhite) },
			[]int{0}, [][4]int{{0, 0, w, h}}},
		{"half outlined", func(s *synth) {
			s.glyph(30, 10, 60, 50, 2, synthWhite)
			s.rect(45, 8, 62, 52, synthWhite)
		}, []int{0}, [][4]int{{0, 0, w, h}}},
		{"cyan is not a caption colour", func(s *synth) { s.glyph(20, 20, 26, 44, 2, synthCyan) },
			[]int{0}, [][4]int{{0, 0, w, h}}},
		{"touches the band's edge", func(s *synth) { s.glyph(0, 20, 6, 44, 2, synthWhite) },
			[]int{0}, [][4]int{{0, 0, w, h}}},
		{"speck", func(s *synth) { s.glyph(20, 20, 21, 22, 2, synthWhite) },
			[]int{0}, [][4]int{{0, 0, w, h}}},
		{"taller than text", func(s *synth) { s.glyph(20, 3, 26, 57, 2, synthWhite) },
			[]int{0}, [][4]int{{0, 0, w, h}}},
		{"outline under reach away", func(s *synth) {
			// Anti-aliasing: a grey pixel between fill and black.
			s.rect(17, 17, 29, 47, synthBlack)
			s.rect(19, 19, 27, 45, synthGrey)
			s.rect(20, 20, 26, 44, synthWhite)
		}, []int{6 * 24}, [][4]int{{20, 20, 26, 44}}},
		{"counter of an o over a bright background", func(s *synth) {
			s.rect(0, 0, w, h, synthYellow)
			s.glyph(40, 15, 60, 45, 2, synthYellow) // the o's fill
			s.glyph(46, 21, 54, 39, 2, synthYellow) // its counter: outline, then background
		}, []int{20*30 - 12*22, 0}, [][4]int{{40, 15, 60, 45}, {46, 21, 54, 39}}},
		{"pocket between glyphs", func(s *synth) {
			// A U closed by a bar above it; their outlines enclose some
			// of the bright background.
			s.rect(0, 0, w, h, synthWhite)
			s.rect(98, 4, 122, 46, synthBlack)
			s.rect(100, 6, 120, 9, synthWhite)   // the bar
			s.rect(100, 11, 104, 44, synthWhite) // the U
			s.rect(116, 11, 120, 44, synthWhite)
			s.rect(100, 40, 120, 44, synthWhite)
			s.rect(106, 11, 114, 38, synthWhite) // the pocket
		}, []int{20 * 3, 2*4*33 + 12*4, 0}, [][4]int{{100, 6, 120, 9}, {100, 11, 120, 44}, {106, 11, 114, 38}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSynth(w, h, synthGrey)
			c.paint(s)
			mask, ink, box := binarise(s, 360) // glyphs up to 45 lines tall, 72 wide
			total := 0
			for i, b := range c.boxes {
				got := inkIn(mask, w, b[0], b[1], b[2], b[3])
				if got != c.want[i] {
					t.Errorf("ink in %v: %d, want %d", b, got, c.want[i])
				}
				total += c.want[i]
			}
			if ink < total {
				t.Errorf("ink %d, want at least %d", ink, total)
			}
			if n := inkIn(mask, w, 0, 0, w, h); n != ink {
				t.Errorf("mask has %d ink pixels, mask returned %d", n, ink)
			}
			if ink > 0 && inkIn(mask, w, box.x0, box.y0, box.x1, box.y1) != ink {
				t.Errorf("ink box %v leaves ink out", box)
			}
		})
	}
}

// TestBinariserUnaligned checks that the word loops and the byte loops
// (for buffers that are not 8-byte aligned) give the same mask.
func TestBinariserUnaligned(t *testing.T) {
	t.Parallel()
	const w, h = 101, 40
	s := newSynth(w, h, synthYellow)
	for i := range 9 {
		s.glyph(5+i*10, 10+i%3, 11+i*10, 30, 2, [][3]byte{synthWhite, synthYellow}[i%2])
	}
	s.rect(0, 35, w, 40, synthWhite)
	frame := s.frame()
	unaligned := make([]byte, len(frame)+1)[1:]
	copy(unaligned, frame)
	if words(unaligned) != nil || words(frame) == nil {
		t.Fatal("test buffers are not as meant: want one aligned, one not")
	}
	var masks [2][]byte
	var inks [2]int
	for i, buf := range [][]byte{frame, unaligned} {
		f := asBand(buf, w, h)
		masks[i] = make([]byte, w*h)
		inks[i] = newBinariser(360, false).mask(&f, masks[i])
	}
	if inks[0] != inks[1] || string(masks[0]) != string(masks[1]) {
		t.Errorf("aligned ink %d, unaligned %d; masks equal: %v", inks[0], inks[1], string(masks[0]) == string(masks[1]))
	}
	if want := 9*6*20 - 6*3*(1+2); inks[0] != want { // glyph i is 20-i%3 rows tall
		t.Errorf("ink %d, want %d", inks[0], want)
	}
}

func TestNextFill(t *testing.T) {
	t.Parallel()
	row := make([]byte, 64)
	for i := range row {
		row[i] = byte(i * 4) // 0, 4, …, 252: at or above 170 from 43 on
	}
	rw := words(row)
	for start := range 64 {
		for end := start; end <= 64; end++ {
			want := start
			for want < end && row[want] < inkFill {
				want++
			}
			if got := nextFill(row, rw, start, end); got != want {
				t.Fatalf("nextFill(%d, %d) = %d, want %d", start, end, got, want)
			}
			if got := nextFill(row, nil, start, end); got != want {
				t.Fatalf("nextFill bytewise (%d, %d) = %d, want %d", start, end, got, want)
			}
			want = start
			for want < end && row[want] >= inkFill {
				want++
			}
			if got := nextNonFill(row, rw, start, end); got != want {
				t.Fatalf("nextNonFill(%d, %d) = %d, want %d", start, end, got, want)
			}
		}
	}
	for b := range 256 {
		x := uint64(b) * lanes
		if got, want := fillBytes(x) != 0, b >= inkFill; got != want {
			t.Errorf("fillBytes(%d): %v, want %v", b, got, want)
		}
	}
}

// FuzzBinariser feeds the binariser arbitrary pixels (a video is
// untrusted input): it must not fail, its ink must lie on bright pixels
// and in its box, and the word and byte loops must agree.
func FuzzBinariser(f *testing.F) {
	s := newSynth(37, 21, synthYellow)
	s.glyph(10, 6, 14, 16, 2, synthWhite)
	s.glyph(20, 6, 30, 16, 1, synthYellow)
	f.Add(s.frame(), uint8(37), uint16(180))
	f.Add([]byte{0, 255, 16, 235, 170, 64}, uint8(9), uint16(100))
	f.Fuzz(func(t *testing.T, data []byte, width uint8, frameH uint16) {
		w := 1 + int(width)%64
		if len(data) == 0 || frameH == 0 {
			return
		}
		h := max(1, min(len(data)/bandSize(w, 1), 64))
		buf := make([]byte, bandSize(w, h))
		for i := range buf {
			buf[i] = data[i%len(data)]
		}
		unaligned := make([]byte, len(buf)+1)[1:]
		copy(unaligned, buf)
		b := newBinariser(int(frameH), false)
		var masks [2][]byte
		var inks [2]int
		for k, p := range [][]byte{buf, unaligned} {
			band := asBand(p, w, h)
			masks[k] = make([]byte, w*h)
			inks[k] = b.mask(&band, masks[k])
			n := 0
			for i, v := range masks[k] {
				if v > 1 || (v == 1 && band.y[i] < inkFill) {
					t.Fatalf("mask byte %d is %d over luma %d", i, v, band.y[i])
				}
				if v == 1 {
					x, y := i%w, i/w
					if x < b.inkBox.x0 || x >= b.inkBox.x1 || y < b.inkBox.y0 || y >= b.inkBox.y1 {
						t.Fatalf("ink at (%d, %d) outside the box %v", x, y, b.inkBox)
					}
				}
				n += int(v)
			}
			if n != inks[k] {
				t.Fatalf("mask has %d ink pixels, mask returned %d", n, inks[k])
			}
		}
		if inks[0] != inks[1] || string(masks[0]) != string(masks[1]) {
			t.Fatalf("word and byte loops disagree: ink %d and %d", inks[0], inks[1])
		}
	})
}
