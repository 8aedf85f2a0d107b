package scc

import "slices"

// capt is one pop-on caption of the writer's plan: what the screen shows
// while the same units are on it. Times are frames.
type capt struct {
	units []int  // the units shown, indices into plan.units, in the order they came on screen
	lines []line // their rows as placed, top to bottom
	load  [][2]byte
	tied  []bool // tied[k]: load[k] goes on the frame after load[k-1]
	// want and wantEnd are when the screen is to show it; eoc and end are
	// the scheduled times. The caption is displayed from its
	// end-of-caption code (eoc, and its copy at eoc+1) and erased at end
	// (edm set) or replaced there by the next.
	want, wantEnd int64
	eoc, end      int64
	edm           bool
	loadAt        []int64
	// endWhy says why end is not wantEnd: endCut, endExtended, endKept or
	// endMerged.
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
	// endMerged: the caption after it was left out, too short to be
	// loaded in time; this one stays on in its place.
	endMerged
)

// minFrames is the shortest a caption is displayed: its end-of-caption
// code and the copy of it take two frames before an erase can follow.
const minFrames = 2

// schedule places the captions' pairs on frames, one pair a frame as
// line 21 carries them, in order, and returns the captions it keeps:
//
//   - A caption is loaded into non-displayed memory while the one before
//     it is displayed, and displayed by its end-of-caption code on the
//     frame it starts. Its pairs take the frames just before that,
//     skipping the two that erase the caption before, and never before
//     that caption's own end-of-caption code: loading then would change
//     the caption being loaded before it.
//   - When they do not fit, the caption is displayed later: as soon as
//     its pairs are loaded.
//   - A caption between two it directly follows and precedes, that shows
//     nothing they do not, is left out when showing it would delay the
//     changes it and the next one make more than leaving it out does
//     (cues that overlap by a frame or two would otherwise leave no time
//     to load the caption after them): the caption before stays on until
//     the next one.
//   - A caption ends with an erase-displayed-memory code (and its copy),
//     or where the next one is displayed. A gap of one frame between two
//     captions has no room for the erase and is closed.
func schedule(caps []capt, us []unit) []capt {
	kept := caps[:0]  // caps[i] is read before kept can reach it
	busy := int64(-1) // the last frame the caption before uses to be displayed
	var scratch []int64
	for i := range caps {
		c := caps[i]
		var prev *capt
		if len(kept) > 0 {
			prev = &kept[len(kept)-1]
		}
		if i+1 < len(caps) && skippable(prev, &c, &caps[i+1]) {
			// The delays of the changes c and the next caption make,
			// with c and without it.
			var eoc, next int64
			eoc, scratch = earliest(&c, prev, busy, scratch)
			shown := c
			shown.end = max(c.wantEnd, eoc+minFrames)
			next, scratch = earliest(&caps[i+1], &shown, eoc+1, scratch)
			with := eoc - c.want + next - caps[i+1].want
			alone := prev
			if prev != nil && prev.wantEnd == c.want {
				// The caption before would stay on until the next one.
				stay := *prev
				stay.end, stay.wantEnd = max(stay.end, c.wantEnd), c.wantEnd
				alone = &stay
			}
			next, scratch = earliest(&caps[i+1], alone, busy, scratch)
			without := 2*next - c.want - caps[i+1].want
			if without < with {
				for _, u := range c.units {
					if prev == nil || !slices.Contains(prev.units, u) {
						us[u].merged = true
					}
				}
				if prev != nil && prev.wantEnd == c.want {
					prev.wantEnd, prev.end, prev.endWhy = c.wantEnd, max(prev.end, c.wantEnd), endMerged
				}
				continue
			}
		}
		want := c.want
		edmAt := int64(-1)
		if prev != nil {
			if prev.end > want {
				prev.end, prev.endWhy = want, endCut
			}
			if want-prev.end >= minFrames {
				edmAt = prev.end
			} else {
				prev.end = want
			}
		}
		eoc := want
		c.loadAt = fit(c.loadAt[:0], c.tied, &eoc, busy, edmAt)
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
		kept = append(kept, c)
	}
	if len(kept) > 0 {
		kept[len(kept)-1].edm = true
	}
	return kept
}

// skippable reports whether c, between prev and next, may be left out: it
// ends where next starts, and every unit it shows is in next or in prev
// when prev ends where c starts.
func skippable(prev, c, next *capt) bool {
	if c.wantEnd != next.want {
		return false
	}
	for _, u := range c.units {
		if !slices.Contains(next.units, u) && (prev == nil || prev.wantEnd != c.want || !slices.Contains(prev.units, u)) {
			return false
		}
	}
	return true
}

// earliest returns the frame c would be displayed on after prev, the
// caption before it (nil for none), which uses the frames up to busy to
// be displayed; at is scratch space, returned for reuse.
func earliest(c, prev *capt, busy int64, at []int64) (int64, []int64) {
	edmAt := int64(-1)
	if prev != nil {
		if end := min(prev.end, c.want); c.want-end >= minFrames {
			edmAt = end
		}
	}
	eoc := c.want
	at = fit(at[:0], c.tied, &eoc, busy, edmAt)
	return eoc, at
}

// fit places a caption's pairs on the frames just before *eoc, skipping
// the two frames of an erase at edmAt (none when it is negative), and
// moves *eoc later until none is before busy+1.
func fit(at []int64, tied []bool, eoc *int64, busy, edmAt int64) []int64 {
	skip := func(f int64) bool { return edmAt >= 0 && (f == edmAt || f == edmAt+1) }
	for {
		// Place the pairs on the frames before eoc, last first; a tied
		// copy and its code never straddle the erase.
		at = place(at, tied, *eoc, skip)
		if len(at) == 0 || at[0] > busy {
			return at
		}
		*eoc += busy + 1 - at[0]
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
