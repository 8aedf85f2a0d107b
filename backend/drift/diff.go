package drift

import "github.com/captionqa/captionqa/backend/caption"

// Diff compares the candidate timeline with the current one and returns
// what changed, cue by cue, as the package documentation describes. A nil
// track reads as one without cues; neither track is modified. Any two
// tracks can be compared, so there is no error: validating the candidate
// (and refusing a project without a timeline) is the caller's job.
func Diff(current, candidate *caption.Track, opts Options) Result {
	d := differ{a: cuesOf(current), b: cuesOf(candidate)}
	d.run()
	return d.result(opts)
}

func cuesOf(t *caption.Track) []caption.Cue {
	if t == nil {
		return nil
	}
	return t.Cues
}

// op is one item before it is rendered: i indexes the current cues and j
// the candidate's, -1 where the kind has no such side.
type op struct {
	kind   Kind
	i, j   int
	fields fieldSet
}

// differ holds one comparison: the two cue lists, the shift found between
// them, the items so far and scratch space reused from gap to gap.
type differ struct {
	a, b   []caption.Cue
	offset int64
	ops    []op
	// unique are the pairs of cues whose text appears once in each
	// timeline, in current order; anchored marks those the alignment kept.
	unique   []pair
	anchored []bool
	// best and gapPairs are the dynamic programme's table and result.
	best     []int32
	gapPairs []pair
}

// pair is a current cue i matched with a candidate cue j.
type pair struct{ i, j int }

func (d *differ) run() {
	d.findUnique()
	anchors := d.anchors()
	d.offset = shiftOf(d.a, d.b, anchors)
	pi, pj := 0, 0
	for _, p := range anchors {
		d.gap(pi, p.i, pj, p.j)
		d.pair(p.i, p.j)
		pi, pj = p.i+1, p.j+1
	}
	d.gap(pi, len(d.a), pj, len(d.b))
	d.rejoinMoves()
}

// findUnique collects the texts that appear exactly once in each
// timeline, with where they appear.
func (d *differ) findUnique() {
	type seen struct{ inA, inB, i, j int }
	index := make(map[string]int32, len(d.a))
	texts := make([]seen, 0, len(d.a))
	for i := range d.a {
		if k, ok := index[d.a[i].Text]; ok {
			texts[k].inA++
			continue
		}
		index[d.a[i].Text] = int32(len(texts))
		texts = append(texts, seen{inA: 1, i: i})
	}
	// A text the current timeline lacks cannot pair up, so it is not
	// recorded: the map only grows with the current timeline.
	for j := range d.b {
		if k, ok := index[d.b[j].Text]; ok {
			texts[k].inB++
			texts[k].j = j
		}
	}
	// texts is in order of first appearance in the current timeline, which
	// for a text seen once is its position: unique comes out sorted by i.
	for _, t := range texts {
		if t.inA == 1 && t.inB == 1 {
			d.unique = append(d.unique, pair{t.i, t.j})
		}
	}
}

// anchors returns the longest subsequence of the unique pairs whose
// candidate positions increase too, marking them in d.anchored: the
// cues both timelines keep in the same order.
func (d *differ) anchors() []pair {
	d.anchored = make([]bool, len(d.unique))
	keep := lis(d.unique)
	out := make([]pair, len(keep))
	for n, k := range keep {
		d.anchored[k] = true
		out[n] = d.unique[k]
	}
	return out
}

// pair records the matched cues i and j as changed when a field differs.
func (d *differ) pair(i, j int) {
	if f := compare(&d.a[i], &d.b[j], d.offset); f != 0 {
		d.ops = append(d.ops, op{kind: Changed, i: i, j: j, fields: f})
	}
}

func (d *differ) removed(i int) { d.ops = append(d.ops, op{kind: Removed, i: i, j: -1}) }
func (d *differ) added(j int)   { d.ops = append(d.ops, op{kind: Added, i: -1, j: j}) }

// rejoinMoves turns a cue whose unique text left the anchors (it moved
// past other cues) back into one changed item, where the gaps left it
// removed on one side and added on the other.
func (d *differ) rejoinMoves() {
	var moved []pair
	for k, p := range d.unique {
		if !d.anchored[k] {
			moved = append(moved, p)
		}
	}
	if len(moved) == 0 {
		return
	}
	removedAt := map[int]int{}
	addedAt := map[int]int{}
	for n, o := range d.ops {
		switch o.kind {
		case Removed:
			removedAt[o.i] = n
		case Added:
			addedAt[o.j] = n
		}
	}
	drop := make([]bool, len(d.ops))
	for _, p := range moved {
		r, okR := removedAt[p.i]
		a, okA := addedAt[p.j]
		if !okR || !okA {
			continue
		}
		drop[a] = true
		if f := compare(&d.a[p.i], &d.b[p.j], d.offset); f != 0 {
			d.ops[r] = op{kind: Changed, i: p.i, j: p.j, fields: f}
		} else {
			drop[r] = true
		}
	}
	kept := d.ops[:0]
	for n, o := range d.ops {
		if !drop[n] {
			kept = append(kept, o)
		}
	}
	d.ops = kept
}

// result counts the items and renders the preview.
func (d *differ) result(opts Options) Result {
	var r Result
	for _, o := range d.ops {
		switch o.kind {
		case Added:
			r.Summary.Added++
		case Removed:
			r.Summary.Removed++
		case Changed:
			r.Summary.Changed++
		}
	}
	n := opts.previewCap(len(d.ops))
	r.Preview = make([]Item, n)
	for k, o := range d.ops[:n] {
		r.Preview[k] = d.item(o)
	}
	r.Truncated = n < len(d.ops)
	r.OffsetMs = d.offset
	return r
}

func (d *differ) item(o op) Item {
	it := Item{Kind: o.kind}
	if o.i >= 0 {
		i := o.i
		it.CurrentIndex, it.Before = &i, view(&d.a[i])
	}
	if o.j >= 0 {
		j := o.j
		it.CandidateIndex, it.After = &j, view(&d.b[j])
	}
	if o.kind == Changed {
		it.Fields = o.fields.names()
	}
	return it
}

func view(c *caption.Cue) *Cue {
	return &Cue{ID: c.ID, StartMs: c.StartMs, EndMs: c.EndMs, Text: c.Text, Voice: c.Voice}
}
