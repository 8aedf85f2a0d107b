package ffmpeg

import (
	"math/bits"
	"unsafe"
)

// The binariser of ocr_burned: it turns one frame of the caption band
// (8-bit YUV 4:2:0, as ffmpeg sends it) into an ink mask holding the
// fill of the caption's glyphs and nothing else.
//
// A burned-in caption in the usual style (libass, a broadcaster's
// character generator) is a bright fill, white or yellow, inside a dark
// outline. A busy background has bright areas too, even yellow ones under
// yellow text, but they are not ringed by black. So:
//
//  1. candidates are the pixels whose luma is at least inkFill;
//  2. they are grouped into 4-connected components (runs per row, joined
//     by union-find);
//  3. a component is a glyph when its size fits text (an underlined
//     span, one long fill, does not), it does not touch the band's edge,
//     nearly all the pixels around it are dark (luma at most inkDark, or
//     inkDarkUpscaled in an upscaled band, looking up to reach pixels out,
//     since the outline's anti-aliased edge lies between) and its mean
//     chroma is white or yellow;
//  4. a glyph whose outline, crossed, leads to other glyphs' fill on at
//     least half its border is dropped: it is background enclosed by
//     their outlines, the counter of an "o" or the pocket between a "t"
//     and an "h" drawn over a bright background.
//
// Steps 3 and 4 look at the border of plausible components only (not at
// the large bright areas of the background), so a frame costs little
// more than one pass over its luma. The thresholds hold for limited- and
// full-range video alike.

// Thresholds of the ink rule.
const (
	inkFill = 170 // luma of a fill pixel: yellow is 210 in BT.601, 219 in BT.709; white 235
	inkDark = 64  // luma of an outline pixel: black is 16 (0 in full range)
	// inkDarkUpscaled is inkDark for bands ffmpeg upscaled: the filter
	// spreads an outline of one or two pixels and lifts its core.
	inkDarkUpscaled = 100
	// inkDarkShare is the least share (in 1/256) of a glyph's border
	// that must be outline.
	inkDarkShare = 205
)

// ocrBand is one frame of the band: planes of a w×h 4:2:0 image.
type ocrBand struct {
	w, h    int
	y, u, v []byte // u and v are cw×ch, cw = (w+1)/2, ch = (h+1)/2
}

// bandSize is the byte size of a w×h 4:2:0 frame.
func bandSize(w, h int) int {
	cw, ch := (w+1)/2, (h+1)/2
	return w*h + 2*cw*ch
}

// asBand views buf (bandSize(w, h) bytes) as a frame.
func asBand(buf []byte, w, h int) ocrBand {
	n, c := w*h, ((w+1)/2)*((h+1)/2)
	return ocrBand{w: w, h: h, y: buf[:n], u: buf[n : n+c], v: buf[n+c : n+2*c]}
}

// inkRun is a horizontal stretch [x0, x1) of candidate pixels in row y;
// label is its component's root (an index into runs).
type inkRun struct {
	y, x0, x1 int32
	label     int32
}

// inkComp gathers the statistics of a component (indexed by its root).
type inkComp struct {
	area           int
	x0, y0, x1, y1 int  // bounding box, exclusive ends
	edge           bool // touches the band's edge
	// Of plausible components only:
	sumU, sumV, chroma int
	border, darkBorder int // non-candidate neighbours; those near a dark pixel
	enclosed           int // border pixels beyond which lies another glyph
	plausible, glyph   bool
}

// binariser holds the scratch space of mask; one per goroutine.
type binariser struct {
	// Size limits of a glyph's fill, in pixels.
	minArea, maxH, maxW int
	// reach is how far out from a glyph's fill its outline is looked for.
	reach int
	// dark is the highest luma of an outline pixel.
	dark byte

	// inkBox is the box of the last mask's ink.
	inkBox ocrBox

	runs   []inkRun
	parent []int32
	comps  []inkComp
	glyphs []int32
	// label holds, per pixel of a glyph run, its root + 1 (0 elsewhere);
	// labelled lists the runs written, to be cleared by the next mask.
	label    []int32
	labelled []inkRun
}

// newBinariser returns a binariser for a band cut from frames of height
// frameH (after any upscale, upscaled telling).
func newBinariser(frameH int, upscaled bool) *binariser {
	s := float64(frameH) / 720
	dark := byte(inkDark)
	if upscaled {
		dark = inkDarkUpscaled
	}
	return &binariser{
		dark:    dark,
		minArea: max(int(6*s*s), 3),
		maxH:    max(frameH/8, 8),
		maxW:    max(frameH/5, 8),
		reach:   max(3, int(3*s+0.5)),
	}
}

func (b *binariser) find(i int32) int32 {
	for b.parent[i] != i {
		b.parent[i] = b.parent[b.parent[i]]
		i = b.parent[i]
	}
	return i
}

func (b *binariser) union(i, j int32) {
	i, j = b.find(i), b.find(j)
	if i == j {
		return
	}
	if i < j {
		b.parent[j] = i
	} else {
		b.parent[i] = j
	}
}

// mask writes f's ink mask into out (f.w×f.h bytes, all 0 on entry; 1
// for ink) and returns the number of ink pixels; inkBox is their box.
func (b *binariser) mask(f *ocrBand, out []byte) int {
	b.inkBox = ocrBox{}
	b.findRuns(f)
	if len(b.runs) == 0 {
		return 0
	}
	b.measure(f)
	b.outline(f)
	b.dropPockets(f)
	ink := 0
	for i := range b.runs {
		r := &b.runs[i]
		if !b.comps[r.label].glyph {
			continue
		}
		row := out[int(r.y)*f.w:]
		for x := r.x0; x < r.x1; x++ {
			row[x] = 1
		}
		ink += int(r.x1 - r.x0)
	}
	return ink
}

// findRuns lists the runs of candidates, joined to the overlapping runs
// of the row above (steps 1 and 2), and labels each with its root.
func (b *binariser) findRuns(f *ocrBand) {
	w := f.w
	b.runs = b.runs[:0]
	b.parent = b.parent[:0]
	yw := words(f.y)
	prevStart, prevEnd := 0, 0
	for y := range f.h {
		rs, re := y*w, (y+1)*w
		start, p := len(b.runs), prevStart
		for i := nextFill(f.y, yw, rs, re); i < re; i = nextFill(f.y, yw, i, re) {
			x0 := i - rs
			i = nextNonFill(f.y, yw, i, re)
			x := i - rs
			label := int32(len(b.runs))
			b.runs = append(b.runs, inkRun{y: int32(y), x0: int32(x0), x1: int32(x), label: label})
			b.parent = append(b.parent, label)
			for p < prevEnd && int(b.runs[p].x1) <= x0 {
				p++
			}
			for q := p; q < prevEnd && int(b.runs[q].x0) < x; q++ {
				b.union(label, int32(q))
			}
		}
		prevStart, prevEnd = start, len(b.runs)
	}
	for i := range b.runs {
		b.runs[i].label = b.find(int32(i))
	}
}

// measure gathers each component's area, box and edge contact, and marks
// the plausible ones: a glyph's size, clear of the band's edge.
func (b *binariser) measure(f *ocrBand) {
	if cap(b.comps) < len(b.runs) {
		b.comps = make([]inkComp, len(b.runs), 2*len(b.runs))
	}
	b.comps = b.comps[:len(b.runs)]
	for i := range b.runs {
		if b.runs[i].label == int32(i) {
			b.comps[i] = inkComp{x0: f.w, y0: f.h}
		}
	}
	for i := range b.runs {
		r := &b.runs[i]
		c := &b.comps[r.label]
		y, x0, x1 := int(r.y), int(r.x0), int(r.x1)
		c.area += x1 - x0
		c.x0, c.x1 = min(c.x0, x0), max(c.x1, x1)
		c.y0, c.y1 = min(c.y0, y), max(c.y1, y+1)
		if x0 == 0 || x1 == f.w || y == 0 || y == f.h-1 {
			c.edge = true
		}
	}
	for i := range b.runs {
		if b.runs[i].label != int32(i) {
			continue
		}
		c := &b.comps[i]
		c.plausible = !c.edge && c.area >= b.minArea && c.y1-c.y0 <= b.maxH && c.x1-c.x0 <= b.maxW
	}
}

// outlined reports whether one of the reach pixels from (x, y) on, in
// direction (dx, dy), is dark.
func (b *binariser) outlined(f *ocrBand, x, y, dx, dy int) bool {
	for range b.reach {
		if x < 0 || x >= f.w || y < 0 || y >= f.h {
			return false
		}
		if f.y[y*f.w+x] <= b.dark {
			return true
		}
		x, y = x+dx, y+dy
	}
	return false
}

// outline measures the border and chroma of the plausible components and
// keeps as glyphs those ringed by dark pixels, white or yellow (step 3).
func (b *binariser) outline(f *ocrBand) {
	w, cw := f.w, (f.w+1)/2
	for i := range b.runs {
		r := &b.runs[i]
		c := &b.comps[r.label]
		if !c.plausible {
			continue
		}
		y, x0, x1 := int(r.y), int(r.x0), int(r.x1)
		// Chroma per chroma sample the run covers.
		crow := (y / 2) * cw
		for cx := x0 / 2; cx <= (x1-1)/2; cx++ {
			c.sumU += int(f.u[crow+cx])
			c.sumV += int(f.v[crow+cx])
			c.chroma++
		}
		// The ends of the run, then the pixels above and below that are
		// not candidates. A plausible component is clear of the edge.
		c.border += 2
		if b.outlined(f, x0-1, y, -1, 0) {
			c.darkBorder++
		}
		if b.outlined(f, x1, y, 1, 0) {
			c.darkBorder++
		}
		for _, dy := range [2]int{-1, 1} {
			nrow := f.y[(y+dy)*w : (y+dy+1)*w]
			for x := x0; x < x1; x++ {
				if nrow[x] >= inkFill {
					continue
				}
				c.border++
				if b.outlined(f, x, y+dy, 0, dy) {
					c.darkBorder++
				}
			}
		}
	}
	b.glyphs = b.glyphs[:0]
	for i := range b.runs {
		if b.runs[i].label != int32(i) {
			continue
		}
		c := &b.comps[i]
		if c.plausible && c.darkBorder*256 >= c.border*inkDarkShare && inkColour(c.sumU/c.chroma, c.sumV/c.chroma) {
			c.glyph = true
			b.glyphs = append(b.glyphs, int32(i))
		}
	}
}

// dropPockets drops the glyphs that are background enclosed by other
// glyphs' outlines (step 4).
func (b *binariser) dropPockets(f *ocrBand) {
	w := f.w
	if cap(b.label) < w*f.h {
		b.label = make([]int32, w*f.h)
		b.labelled = b.labelled[:0]
	}
	label := b.label[:w*f.h]
	for _, r := range b.labelled {
		clear(label[int(r.y)*w+int(r.x0) : int(r.y)*w+int(r.x1)])
	}
	b.labelled = b.labelled[:0]
	if len(b.glyphs) == 0 {
		return
	}
	for i := range b.runs {
		r := &b.runs[i]
		if !b.comps[r.label].glyph {
			continue
		}
		row := label[int(r.y)*w:]
		for x := r.x0; x < r.x1; x++ {
			row[x] = r.label + 1
		}
		b.labelled = append(b.labelled, *r)
	}
	// across reports whether another glyph's fill lies within reach+1
	// pixels from (x, y), a border pixel of glyph self, in direction
	// (dx, dy), before any other candidate.
	across := func(self int32, x, y, dx, dy int) bool {
		for range b.reach + 1 {
			x, y = x+dx, y+dy
			if x < 0 || x >= w || y < 0 || y >= f.h {
				return false
			}
			if f.y[y*w+x] >= inkFill {
				l := label[y*w+x] - 1
				return l >= 0 && l != self
			}
		}
		return false
	}
	for i := range b.runs {
		r := &b.runs[i]
		c := &b.comps[r.label]
		if !c.glyph {
			continue
		}
		y, x0, x1 := int(r.y), int(r.x0), int(r.x1)
		if across(r.label, x0, y, -1, 0) {
			c.enclosed++
		}
		if across(r.label, x1-1, y, 1, 0) {
			c.enclosed++
		}
		for _, dy := range [2]int{-1, 1} {
			nrow := f.y[(y+dy)*w : (y+dy+1)*w]
			for x := x0; x < x1; x++ {
				if nrow[x] < inkFill && across(r.label, x, y, 0, dy) {
					c.enclosed++
				}
			}
		}
	}
	// Decide after counting: a pocket's own label counted for its
	// neighbours too.
	for _, i := range b.glyphs {
		c := &b.comps[i]
		if 2*c.enclosed >= c.border {
			c.glyph = false
			continue
		}
		b.inkBox = b.inkBox.union(ocrBox{c.x0, c.y0, c.x1, c.y1})
	}
}

// inkColour reports whether mean chroma (u, v) is a caption's fill:
// white (neutral) or yellow (blue-difference well below neutral, red-
// difference a little above).
func inkColour(u, v int) bool {
	if u >= 128-24 && u <= 128+24 && v >= 128-24 && v <= 128+24 {
		return true
	}
	return u < 104 && v >= 112 && v <= 176
}

// Word-at-a-time tests of eight luma bytes against inkFill (which must be
// at least 128): a byte is at least inkFill when its top bit is set and
// its low seven bits plus 256-inkFill carry into the top bit.
const (
	lanes    = 0x0101010101010101
	laneTops = 0x8080808080808080
	fillAdd  = (256 - inkFill) * lanes
)

// fillBytes has the top bit of each byte of x that is at least inkFill set.
func fillBytes(x uint64) uint64 { return ((x &^ laneTops) + fillAdd) & x & laneTops }

// words views b as 64-bit words, byte 8i+k of b being byte k (from the
// least significant) of word i, when b's data is 8-byte aligned (as large
// allocations are) on a little-endian machine; nil otherwise, and the
// callers go byte by byte. The word loops are several times faster than
// byte loops, and under the race detector one check instead of eight.
func words(b []byte) []uint64 {
	one := uint16(1)
	if len(b) < 8 || *(*byte)(unsafe.Pointer(&one)) != 1 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

// nextFill returns the index of the first byte of p[i:end] that is at
// least inkFill, or end; pw is words(p).
func nextFill(p []byte, pw []uint64, i, end int) int {
	if pw != nil {
		for ; i < end && i%8 != 0; i++ {
			if p[i] >= inkFill {
				return i
			}
		}
		for ; i+8 <= end; i += 8 {
			if m := fillBytes(pw[i/8]); m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	}
	for ; i < end; i++ {
		if p[i] >= inkFill {
			return i
		}
	}
	return end
}

// nextNonFill returns the index of the first byte of p[i:end] that is
// below inkFill, or end; pw is words(p).
func nextNonFill(p []byte, pw []uint64, i, end int) int {
	if pw != nil {
		for ; i < end && i%8 != 0; i++ {
			if p[i] < inkFill {
				return i
			}
		}
		for ; i+8 <= end; i += 8 {
			if m := ^fillBytes(pw[i/8]) & laneTops; m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	}
	for ; i < end; i++ {
		if p[i] < inkFill {
			return i
		}
	}
	return end
}
