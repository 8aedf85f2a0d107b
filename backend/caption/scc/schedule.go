package scc

// capt is one pop-on caption of the writer's plan. Times are frames.
type capt struct {
	src         int // the cue's index in the track
	part, parts int // which piece of a split cue it is
	rows        []row
	first       int // the top row, 1 to 15
	align       string
	load        [][2]byte
	tied        []bool // tied[k]: load[k] goes on the frame after load[k-1]
	// want and wantEnd are the cue's times rounded to frames (a piece's
	// share of them); eoc and end are the scheduled ones. The caption is
	// displayed from its end-of-caption code (eoc, and its copy at
	// eoc+1) and erased at end (edm set) or replaced there by the next.
	want, wantEnd int64
	eoc, end      int64
	edm           bool
	loadAt        []int64
	// endWhy says why end is not wantEnd: endCut, endExtended or
	// endKept.
	endWhy int
}

// Why a caption's end moved.
const (
	endAsWanted = iota
	// endCut: the next caption is displayed before it ends.
	endCut
	// endExtended: the next caption was displayed late, and this one
	// stays until then rather than leave the screen blank between
	// captions that followed each other.
	endExtended
	// endKept: its start moved past its end; it keeps its duration.
	endKept
)

// minFrames is the shortest a caption is displayed: its end-of-caption
// code and the copy of it take two frames before an erase can follow.
const minFrames = 2

// schedule places the captions' pairs on frames, one pair a frame as
// line 21 carries them, in order:
//
//   - A caption is loaded into non-displayed memory while the one before
//     it is displayed, and displayed by its end-of-caption code on the
//     frame it starts. Its pairs take the frames just before that,
//     skipping the two that erase the caption before, and never before
//     that caption's own end-of-caption code: loading then would change
//     the caption being loaded before it.
//   - When they do not fit, the caption is displayed later: as soon as
//     its pairs are loaded.
//   - A caption ends with an erase-displayed-memory code (and its copy),
//     or where the next one is displayed. A gap of one frame between two
//     captions has no room for the erase and is closed.
func schedule(caps []capt) {
	busy := int64(-1) // the last frame the caption before uses to be displayed
	for i := range caps {
		c := &caps[i]
		want := c.want
		edmAt := int64(-1)
		var prev *capt
		if i > 0 {
			prev = &caps[i-1]
			if prev.end > want {
				prev.end, prev.endWhy = want, endCut
			}
			if want-prev.end >= minFrames {
				edmAt = prev.end
			} else {
				prev.end = want
			}
		}
		skip := func(f int64) bool { return edmAt >= 0 && (f == edmAt || f == edmAt+1) }
		eoc := want
		for {
			// Place the pairs on the frames before eoc, last first; a
			// tied copy and its code never straddle the erase.
			c.loadAt = place(c.loadAt[:0], c.tied, eoc, skip)
			if len(c.loadAt) == 0 || c.loadAt[0] > busy {
				break
			}
			eoc += busy + 1 - c.loadAt[0]
		}
		if eoc > want && prev != nil && edmAt < 0 {
			prev.end, prev.endWhy = eoc, endExtended
		}
		if prev != nil {
			prev.edm = edmAt >= 0
		}
		c.eoc, c.end = eoc, max(c.wantEnd, eoc+minFrames)
		if c.wantEnd < eoc+minFrames {
			c.end = eoc + max(minFrames, c.wantEnd-c.want)
			c.endWhy = endKept
		}
		busy = eoc + 1
	}
	if len(caps) > 0 {
		caps[len(caps)-1].edm = true
	}
}

// place returns the frames of a caption's pairs, loaded on the frames
// just before eoc, skipping those skip names; a pair tied to the one
// before it and that one go on consecutive frames.
func place(at []int64, tied []bool, eoc int64, skip func(int64) bool) []int64 {
	n := len(tied)
	at = append(at[:0], make([]int64, n)...)
	f := eoc - 1
	for k := n - 1; k >= 0; {
		size := 1
		if tied[k] && k > 0 {
			size = 2
		}
		for skip(f) || size == 2 && skip(f-1) {
			f--
		}
		for j := range size {
			at[k-j] = f - int64(j)
		}
		f -= int64(size)
		k -= size
	}
	return at
}
