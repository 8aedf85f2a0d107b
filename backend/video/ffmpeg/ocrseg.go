package ffmpeg

import "math/bits"

// The segmenter of ocr_burned: it takes every frame of the band, in
// order, and cuts the video into segments over which the ink mask stays
// the same, to the frame.
//
// Binarising every frame would cost as much as decoding them, so only
// every step-th frame (a sample, a few a second) is binarised; the
// frames in between are held. When a sample differs from the last one,
// the frames between them are binarised too and the cut goes where the
// mask changes, so cue times are exact to the frame. What sampling
// misses is a change undone within a step (a caption shown for less
// than a step, or a flicker). Each segment keeps a vote per pixel over
// the masks binarised in it; its majority mask, with transient
// background blobs voted out, is what tesseract reads.

// ocrSegment is a run of frames [start, end) with one ink mask; img is
// its majority mask cut to the ink's box, nil when the segment is blank.
type ocrSegment struct {
	start, end int
	img        *inkImage
}

// inkImage is a w×h mask (1 for ink).
type inkImage struct {
	w, h int
	pix  []byte
}

// ocrBox is a rectangle [x0, x1) × [y0, y1); empty when x0 >= x1.
type ocrBox struct{ x0, y0, x1, y1 int }

func (b ocrBox) empty() bool { return b.x0 >= b.x1 || b.y0 >= b.y1 }

func (b ocrBox) union(o ocrBox) ocrBox {
	switch {
	case b.empty():
		return o
	case o.empty():
		return b
	}
	return ocrBox{min(b.x0, o.x0), min(b.y0, o.y0), max(b.x1, o.x1), max(b.y1, o.y1)}
}

// ocrMask is a frame's mask with its ink count and the ink's box.
type ocrMask struct {
	mask []byte
	ink  int
	box  ocrBox
}

// segmenter cuts a stream of band frames into segments: push each frame
// in order, then call finish.
type segmenter struct {
	w, h int
	step int
	bin  *binariser
	// minDiff is the least number of changed pixels that is a change;
	// minInk the least mean ink that is a caption.
	minDiff, minInk int

	n         int      // frames pushed
	pending   [][]byte // the frames after the last sample
	done      [][]byte
	last      ocrMask // the last sample's mask
	lastFrame int     // its frame number, -1 before the first
	scratch   []ocrMask
	cuts      []int

	cur      ocrSegment
	votes    []uint8 // per pixel, over the current segment's masks
	nvotes   int
	voteBox  ocrBox
	inkSum   int
	segments []ocrSegment
}

// newSegmenter returns a segmenter for w×h band frames cut from frames
// of height frameH (after any upscale, upscaled telling), binarising
// every step-th frame.
func newSegmenter(w, h, frameH int, upscaled bool, step int) *segmenter {
	s := float64(frameH) / 720
	sg := &segmenter{
		w: w, h: h, step: max(step, 1),
		bin:       newBinariser(frameH, upscaled),
		minDiff:   max(int(150*s*s), 20),
		minInk:    max(int(250*s*s), 30),
		lastFrame: -1,
		votes:     make([]uint8, w*h),
	}
	sg.scratch = make([]ocrMask, sg.step)
	for i := range sg.scratch {
		sg.scratch[i].mask = make([]byte, w*h)
	}
	sg.last.mask = make([]byte, w*h)
	return sg
}

// push takes the next frame (bandSize(w, h) bytes). It returns the
// buffers it is done with, to be reused (valid until the next push); it
// holds at most step.
func (sg *segmenter) push(frame []byte) [][]byte {
	i := sg.n
	sg.n++
	sg.pending = append(sg.pending, frame)
	if i == 0 || i-sg.lastFrame == sg.step {
		sg.sample()
		sg.done = append(sg.done[:0], sg.pending...)
		sg.pending = sg.pending[:0]
		return sg.done
	}
	return nil
}

// finish binarises the frames after the last sample, closes the last
// segment and returns the segments, blank ones included, covering
// [0, frames pushed).
func (sg *segmenter) finish() []ocrSegment {
	if sg.n == 0 {
		return nil
	}
	if len(sg.pending) > 0 {
		sg.sample()
		sg.pending = nil
	}
	sg.close(sg.n)
	return sg.segments
}

// analyse binarises frame buf into a.
func (sg *segmenter) analyse(buf []byte, a *ocrMask) {
	for y := a.box.y0; y < a.box.y1; y++ {
		clear(a.mask[y*sg.w+a.box.x0 : y*sg.w+a.box.x1])
	}
	f := asBand(buf, sg.w, sg.h)
	a.ink = sg.bin.mask(&f, a.mask)
	a.box = sg.bin.inkBox
}

// sample binarises the last pending frame, a sample; when it differs
// from the last sample, the pending frames before it are binarised too
// and the cuts are placed.
func (sg *segmenter) sample() {
	i := sg.n - 1
	if sg.lastFrame < 0 {
		sg.analyse(sg.pending[0], &sg.last)
		sg.lastFrame = i
		sg.cur = ocrSegment{start: i}
		sg.vote(&sg.last)
		return
	}
	// scratch[k] holds frame lastFrame+1+k; the sample is the last.
	k := len(sg.pending) - 1
	sample := &sg.scratch[k]
	sg.analyse(sg.pending[k], sample)
	if !sg.changed(&sg.last, sample) {
		sg.vote(sample)
		sg.keep(sample, i)
		return
	}
	for j := range k {
		sg.analyse(sg.pending[j], &sg.scratch[j])
	}
	// Cut wherever two neighbours differ; if none do (a fade), at the
	// largest step.
	cuts := sg.cuts[:0]
	prev, best, bestAt := &sg.last, -1, 0
	for j := 0; j <= k; j++ {
		a := &sg.scratch[j]
		if d := sg.diff(prev, a); d > sg.threshold(prev, a) {
			cuts = append(cuts, j)
		} else if d > best {
			best, bestAt = d, j
		}
		prev = a
	}
	if len(cuts) == 0 {
		cuts = append(cuts, bestAt)
	}
	for j := 0; j <= k; j++ {
		if len(cuts) > 0 && cuts[0] == j {
			sg.close(sg.lastFrame + 1 + j)
			cuts = cuts[1:]
		}
		sg.vote(&sg.scratch[j])
	}
	sg.cuts = cuts
	sg.keep(sample, i)
}

// keep makes a the last sample, frame i.
func (sg *segmenter) keep(a *ocrMask, i int) {
	sg.last, *a = *a, sg.last
	sg.lastFrame = i
}

// diff counts the pixels where a and b differ. Mask bytes are 0 or 1,
// so the bits of their XOR count the differing bytes, eight at a time.
func (sg *segmenter) diff(a, b *ocrMask) int {
	u := a.box.union(b.box)
	aw, bw := words(a.mask), words(b.mask)
	if aw == nil || bw == nil {
		aw, bw = nil, nil
	}
	n := 0
	for y := u.y0; y < u.y1; y++ {
		i, end := y*sg.w+u.x0, y*sg.w+u.x1
		if aw != nil {
			for ; i < end && i%8 != 0; i++ {
				n += int(a.mask[i] ^ b.mask[i])
			}
			for ; i+8 <= end; i += 8 {
				n += bits.OnesCount64(aw[i/8] ^ bw[i/8])
			}
		}
		for ; i < end; i++ {
			n += int(a.mask[i] ^ b.mask[i])
		}
	}
	return n
}

// changed reports whether b's mask is another caption than a's.
func (sg *segmenter) changed(a, b *ocrMask) bool { return sg.diff(a, b) > sg.threshold(a, b) }

// threshold is the number of differing pixels above which b is another
// caption than a: minDiff, and a tenth of the larger ink.
func (sg *segmenter) threshold(a, b *ocrMask) int { return max(sg.minDiff, max(a.ink, b.ink)/10) }

// ocrMaxVotes bounds the votes of a segment (a caption of 40 s at six
// samples a second), so that a byte holds them: the majority of that many
// is as good as of more.
const ocrMaxVotes = 250

// vote adds a's mask to the current segment's votes, eight pixels at a
// time (no byte can carry into the next below 255).
func (sg *segmenter) vote(a *ocrMask) {
	if sg.nvotes == ocrMaxVotes {
		return
	}
	sg.nvotes++
	sg.inkSum += a.ink
	if a.box.empty() {
		return
	}
	sg.voteBox = sg.voteBox.union(a.box)
	vw, mw := words(sg.votes), words(a.mask)
	if vw == nil || mw == nil {
		vw, mw = nil, nil
	}
	for y := a.box.y0; y < a.box.y1; y++ {
		i, end := y*sg.w+a.box.x0, y*sg.w+a.box.x1
		if vw != nil {
			for ; i < end && i%8 != 0; i++ {
				sg.votes[i] += a.mask[i]
			}
			for ; i+8 <= end; i += 8 {
				vw[i/8] += mw[i/8]
			}
		}
		for ; i < end; i++ {
			sg.votes[i] += a.mask[i]
		}
	}
}

// close ends the current segment before frame end and opens the next.
func (sg *segmenter) close(end int) {
	if end <= sg.cur.start {
		return
	}
	sg.cur.end = end
	if sg.nvotes > 0 && sg.inkSum/sg.nvotes >= sg.minInk {
		sg.cur.img = sg.majority()
	}
	sg.segments = append(sg.segments, sg.cur)
	b := sg.voteBox
	for y := b.y0; y < b.y1; y++ {
		clear(sg.votes[y*sg.w+b.x0 : y*sg.w+b.x1])
	}
	sg.cur = ocrSegment{start: end}
	sg.nvotes, sg.inkSum, sg.voteBox = 0, 0, ocrBox{}
}

// majority returns the pixels that were ink in more than half of the
// current segment's masks, cut to their box; nil if there are none.
func (sg *segmenter) majority() *inkImage {
	in := func(v uint8) bool { return 2*int(v) > sg.nvotes }
	b := ocrBox{}
	for y := sg.voteBox.y0; y < sg.voteBox.y1; y++ {
		row := sg.votes[y*sg.w : (y+1)*sg.w]
		for x := sg.voteBox.x0; x < sg.voteBox.x1; x++ {
			if in(row[x]) {
				b = b.union(ocrBox{x, y, x + 1, y + 1})
			}
		}
	}
	if b.empty() {
		return nil
	}
	img := &inkImage{w: b.x1 - b.x0, h: b.y1 - b.y0}
	img.pix = make([]byte, img.w*img.h)
	for y := b.y0; y < b.y1; y++ {
		row := sg.votes[y*sg.w : (y+1)*sg.w]
		out := img.pix[(y-b.y0)*img.w:]
		for x := b.x0; x < b.x1; x++ {
			if in(row[x]) {
				out[x-b.x0] = 1
			}
		}
	}
	return img
}
