package ffmpeg

import (
	"fmt"
	"testing"
)

// synthCaption is a caption of the synthetic clips: glyphs at x
// positions, each 4×20 in fill, outlined.
type synthCaption []int

// synthScript is a synthetic clip: captions shown over [start, end).
type synthScript []struct {
	start, end int
	caption    synthCaption
	colour     [3]byte
}

// paint draws frame i of script: a grey background with a bright bar
// (no outline: never ink) sweeping across, the caption shown then, and
// extra, a list of glyph boxes drawn on frame i only.
func (sc synthScript) paint(s *synth, i int, extra map[int][4]int) {
	s.rect(0, 0, s.w, s.h, synthGrey)
	s.rect((i*7)%s.w, 4, (i*7)%s.w+12, s.h-4, synthWhite)
	for _, c := range sc {
		if i >= c.start && i < c.end {
			for _, x := range c.caption {
				s.glyph(x, 14, x+4, 34, 2, c.colour)
			}
		}
	}
	if b, ok := extra[i]; ok {
		s.glyph(b[0], b[1], b[2], b[3], 2, synthWhite)
	}
}

// segmentScript runs a segmenter with step over n frames of script,
// recycling (and scribbling over) the buffers it gives back.
func segmentScript(t *testing.T, sc synthScript, n, step int, extra map[int][4]int) []ocrSegment {
	t.Helper()
	const w, h = 160, 48
	sg := newSegmenter(w, h, 360, false, step)
	var free [][]byte
	allocated := 0
	s := newSynth(w, h, synthGrey)
	for i := range n {
		var buf []byte
		if len(free) > 0 {
			buf, free = free[len(free)-1], free[:len(free)-1]
		} else {
			buf = make([]byte, bandSize(w, h))
			allocated++
		}
		sc.paint(s, i, extra)
		copy(buf, s.frame())
		for _, b := range sg.push(buf) {
			for j := range b {
				b[j] = 0xAA
			}
			free = append(free, b)
		}
	}
	if allocated > step {
		t.Errorf("the segmenter held %d buffers, want at most step (%d)", allocated, step)
	}
	return sg.finish()
}

func TestSegmenterCutsOnFrames(t *testing.T) {
	t.Parallel()
	a, b, c, d := synthCaption{20, 30, 40, 50, 60}, synthCaption{30, 44, 58, 72, 86, 100}, synthCaption{70, 80, 90}, synthCaption{10, 40, 70, 100, 130}
	script := synthScript{
		{0, 17, a, synthWhite},
		{18, 40, b, synthYellow}, // after a one-frame gap
		{40, 52, c, synthWhite},  // replacing b on the same frame
		{70, 100, d, synthYellow},
	}
	want := [][2]int{{0, 17}, {18, 40}, {40, 52}, {70, 100}}
	for _, step := range []int{1, 2, 3, 5, 8} {
		t.Run(fmt.Sprintf("step_%d", step), func(t *testing.T) {
			t.Parallel()
			segs := segmentScript(t, script, 100, step, nil)
			next := 0
			var inked [][2]int
			for _, s := range segs {
				if s.start != next || s.end <= s.start {
					t.Fatalf("segments %v do not tile the clip", segs)
				}
				next = s.end
				if s.img != nil {
					inked = append(inked, [2]int{s.start, s.end})
				}
			}
			if next != 100 {
				t.Errorf("segments end at %d, want 100", next)
			}
			if fmt.Sprint(inked) != fmt.Sprint(want) {
				t.Errorf("captions at %v, want %v", inked, want)
			}
		})
	}
}

func TestSegmenterMajority(t *testing.T) {
	t.Parallel()
	a := synthCaption{20, 30, 40, 50, 60}
	script := synthScript{{0, 30, a, synthWhite}}
	// A small outlined speck, under the change threshold, on frames 10
	// and 11 only: it must not reach the image.
	extra := map[int][4]int{10: {120, 16, 124, 20}, 11: {120, 16, 124, 20}}
	segs := segmentScript(t, script, 30, 1, extra)
	if len(segs) != 1 || segs[0].img == nil {
		t.Fatalf("segments %v, want one caption", segs)
	}
	img := segs[0].img
	if img.w != 4+40 || img.h != 20 {
		t.Errorf("image %dx%d, want the caption's box 44x20", img.w, img.h)
	}
	ink := 0
	for _, v := range img.pix {
		ink += int(v)
	}
	if ink != 5*4*20 {
		t.Errorf("image ink %d, want %d", ink, 5*4*20)
	}
}

func TestSegmenterBlank(t *testing.T) {
	t.Parallel()
	segs := segmentScript(t, nil, 40, 5, nil)
	if len(segs) != 1 || segs[0].img != nil || segs[0].start != 0 || segs[0].end != 40 {
		t.Errorf("segments %v, want one blank segment", segs)
	}
	if segs := newSegmenter(16, 16, 360, false, 3).finish(); segs != nil {
		t.Errorf("no frames: segments %v", segs)
	}
}

// FuzzSegmenter cuts arbitrary frames: the segments must tile the clip
// and their images be the majority of some masks (never larger than the
// band).
func FuzzSegmenter(f *testing.F) {
	s := newSynth(24, 12, synthGrey)
	s.glyph(6, 3, 9, 9, 1, synthWhite)
	f.Add(append(s.frame(), make([]byte, 3*bandSize(24, 12))...), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		const w, h = 24, 12
		size := bandSize(w, h)
		n := len(data) / size
		if n == 0 {
			return
		}
		sg := newSegmenter(w, h, 96, false, 1+int(step)%6)
		for i := range n {
			frame := make([]byte, size)
			copy(frame, data[i*size:])
			sg.push(frame)
		}
		next := 0
		for _, seg := range sg.finish() {
			if seg.start != next || seg.end <= seg.start {
				t.Fatalf("segments do not tile [0, %d): %v", n, seg)
			}
			next = seg.end
			if seg.img != nil && (seg.img.w > w || seg.img.h > h || len(seg.img.pix) != seg.img.w*seg.img.h) {
				t.Fatalf("image %dx%d (%d bytes) for a %dx%d band", seg.img.w, seg.img.h, len(seg.img.pix), w, h)
			}
		}
		if next != n {
			t.Fatalf("segments end at %d of %d frames", next, n)
		}
	})
}
