package drift

// maxGapCells bounds the dynamic programme of one gap: 64 by 64 cues.
// Gaps between anchors are a few cues wide in practice; the bound only
// matters for timelines with few unique texts, where it keeps the whole
// diff linear (a gap of g1 by g2 <= maxGapCells cues costs at most
// 64*(g1+g2) cells).
const maxGapCells = 4096

// Pairing scores, in permille-based points. Identical text outweighs
// everything else, so a repeated text pairs with its own copy rather than
// with a neighbour it overlaps; a shared start outweighs a shared end, so
// the first part of a split cue, which keeps the cue's start, is the one
// paired with it.
const (
	scoreSameText  = 2000
	scoreSameStart = 600
	scoreSameEnd   = 400
	// half is the overlap, or shared text, in permille, from which two
	// different texts are the same cue edited.
	half = 500
)

// gap resolves the unanchored cues a[i0:i1] and b[j0:j1] into pairs,
// removals and additions, in timeline order.
func (d *differ) gap(i0, i1, j0, j1 int) {
	// Identical cues at either end need no pairing: this keeps a wide gap
	// of an unchanged timeline with few unique texts out of the greedy
	// pass, and shortens every other gap.
	for i0 < i1 && j0 < j1 && compare(&d.a[i0], &d.b[j0], d.offset) == 0 {
		i0, j0 = i0+1, j0+1
	}
	for i0 < i1 && j0 < j1 && compare(&d.a[i1-1], &d.b[j1-1], d.offset) == 0 {
		i1, j1 = i1-1, j1-1
	}
	switch {
	case i0 == i1 || j0 == j1:
		d.unpaired(i0, i1, j0, j1)
	case (i1-i0)*(j1-j0) <= maxGapCells:
		d.align(i0, i1, j0, j1)
	default:
		d.greedy(i0, i1, j0, j1)
	}
}

// unpaired records a[i0:i1] as removed and b[j0:j1] as added, merged by
// start time (the candidate's net of the shift), a removal first on a tie.
func (d *differ) unpaired(i0, i1, j0, j1 int) {
	for i0 < i1 || j0 < j1 {
		if j0 == j1 || i0 < i1 && d.a[i0].StartMs <= d.b[j0].StartMs-d.offset {
			d.removed(i0)
			i0++
		} else {
			d.added(j0)
			j0++
		}
	}
}

// align pairs a gap optimally: the order-keeping set of pairs with the
// highest total score, by dynamic programming over the gap's cells.
func (d *differ) align(i0, i1, j0, j1 int) {
	n, m := i1-i0, j1-j0
	w := m + 1
	if size := (n + 1) * w; cap(d.best) < size {
		d.best = make([]int32, size)
	} else {
		d.best = d.best[:size]
		clear(d.best)
	}
	best := d.best
	for x := 1; x <= n; x++ {
		for y := 1; y <= m; y++ {
			v := max(best[(x-1)*w+y], best[x*w+y-1])
			if s := d.score(i0+x-1, j0+y-1); s > 0 {
				v = max(v, best[(x-1)*w+y-1]+s)
			}
			best[x*w+y] = v
		}
	}
	pairs := d.gapPairs[:0]
	for x, y := n, m; x > 0 && y > 0; {
		v := best[x*w+y]
		if s := d.score(i0+x-1, j0+y-1); s > 0 && best[(x-1)*w+y-1]+s == v {
			pairs = append(pairs, pair{i0 + x - 1, j0 + y - 1})
			x, y = x-1, y-1
		} else if best[(x-1)*w+y] == v {
			x--
		} else {
			y--
		}
	}
	d.gapPairs = pairs
	// The pairs came out last first.
	for k := len(pairs) - 1; k >= 0; k-- {
		p := pairs[k]
		d.unpaired(i0, p.i, j0, p.j)
		d.pair(p.i, p.j)
		i0, j0 = p.i+1, p.j+1
	}
	d.unpaired(i0, i1, j0, j1)
}

// greedy pairs a gap too wide for align in one pass in time order,
// looking one cue ahead on each side: a cue is left unpaired when the
// next cue on the other side pairs better with its counterpart.
func (d *differ) greedy(i0, i1, j0, j1 int) {
	for i0 < i1 && j0 < j1 {
		s := d.score(i0, j0)
		switch {
		case s > 0 && j0+1 < j1 && d.score(i0, j0+1) > s:
			d.added(j0)
			j0++
		case s > 0 && i0+1 < i1 && d.score(i0+1, j0) > s:
			d.removed(i0)
			i0++
		case s > 0:
			d.pair(i0, j0)
			i0, j0 = i0+1, j0+1
		case d.a[i0].StartMs <= d.b[j0].StartMs-d.offset:
			d.removed(i0)
			i0++
		default:
			d.added(j0)
			j0++
		}
	}
	d.unpaired(i0, i1, j0, j1)
}

// score is how surely a[i] and b[j] are the same cue, 0 when they are not
// to be paired: the same text must overlap in time; different texts must
// overlap by half the shorter cue or share half the longer text.
func (d *differ) score(i, j int) int32 {
	x, y := &d.a[i], &d.b[j]
	ys, ye := y.StartMs-d.offset, y.EndMs-d.offset
	ov := overlap(x.StartMs, x.EndMs, ys, ye)
	var s int32
	if x.Text == y.Text {
		if ov == 0 {
			return 0
		}
		s = scoreSameText + 1000
	} else {
		sim := similarity(x.Text, y.Text)
		if ov < half && sim < half {
			return 0
		}
		s = sim
	}
	s += ov
	if x.StartMs == ys {
		s += scoreSameStart
	}
	if x.EndMs == ye {
		s += scoreSameEnd
	}
	return s
}

// overlap is how much of the shorter of [as, ae) and [bs, be) the other
// covers, in permille. A cue without duration is a point, covered when it
// lies within the other cue, ends included.
func overlap(as, ae, bs, be int64) int32 {
	lo, hi := max(as, bs), min(ae, be)
	short := min(ae-as, be-bs)
	if short <= 0 {
		if lo <= hi {
			return 1000
		}
		return 0
	}
	if hi <= lo {
		return 0
	}
	// Float division: times are int64 and 1000 times a huge span would
	// overflow.
	return int32(min(1000, float64(hi-lo)*1000/float64(short)))
}

// similarity is how much of the longer text the two share at their start
// and end, in permille. A reworded caption keeps most of its words in
// place, so this cheap measure, linear in the text, tells an edit from a
// different caption; it counts bytes, which is close enough for a ratio.
func similarity(x, y string) int32 {
	n := max(len(x), len(y))
	if n == 0 {
		return 1000
	}
	short := min(len(x), len(y))
	p := 0
	for p < short && x[p] == y[p] {
		p++
	}
	s := 0
	for s < short-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	return int32((p + s) * 1000 / n)
}
