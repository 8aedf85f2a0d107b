package drift

import "github.com/captionqa/captionqa/backend/caption"

// shiftOf returns the constant shift of the candidate against the current
// timeline: the amount by which more than half of the anchor pairs, and
// at least two of them, moved at both start and end. It returns 0 when no
// amount has such a majority. Anchors are voted on because their unique
// text says for certain that they are the same cue; a cue edited on top
// of the shift simply votes for nothing.
func shiftOf(a, b []caption.Cue, anchors []pair) int64 {
	vote := func(p pair) (int64, bool) {
		d := b[p.j].StartMs - a[p.i].StartMs
		return d, b[p.j].EndMs-a[p.i].EndMs == d
	}
	// Boyer-Moore majority vote: if an amount has a majority, it is the
	// candidate left at the end; a second pass counts it.
	var cand int64
	count := 0
	for _, p := range anchors {
		d, ok := vote(p)
		switch {
		case !ok:
			count--
		case count == 0:
			cand, count = d, 1
		case d == cand:
			count++
		default:
			count--
		}
		count = max(count, 0)
	}
	if cand == 0 {
		return 0
	}
	count = 0
	for _, p := range anchors {
		if d, ok := vote(p); ok && d == cand {
			count++
		}
	}
	if count < 2 || 2*count <= len(anchors) {
		return 0
	}
	return cand
}
