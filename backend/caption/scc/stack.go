package scc

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
)

// unit is what the writer stacks: a cue, or a piece of a cue of more than
// 4 rows. Times are frames.
type unit struct {
	src         int // the cue's index in the track
	part, parts int // which piece of a split cue it is
	rows        []row
	area, align string
	// want and wantEnd are the cue's times rounded to frames (a piece's
	// share of them); start and end are when it is to be on screen, later
	// when it had to wait for rows (waited lists the cues on screen then).
	want, wantEnd int64
	start, end    int64
	waited        []int
	// from and to are when it is on screen as scheduled, in captions
	// firstCap to lastCap; merged is set when its first caption was left
	// out for want of frames to load it.
	from, to          int64
	firstCap, lastCap int
	merged            bool
}

// line is a row of a caption as placed on the screen.
type line struct {
	r       *row
	at, col int // the screen row (1 to 15) and the first column
}

// stack turns the units into the captions the screen shows, in time
// order: a caption for each stretch of time in which the same units are
// on screen, with each unit's rows. Units overlap on screen as their cues
// do, as long as they fit in the 4 rows a caption has together; a unit
// that does not fit waits until enough rows are free (first fit: a unit
// that arrives later but fits does not wait), and keeps its end while at
// least half its time is left, its duration after that. The pieces of a
// split cue follow each other. It takes time linear in the units (and
// the log of how many pieces wait to start).
func (p *plan) stack() {
	us := p.units
	var (
		firsts  []int // the first piece of each cue, by start
		later   pieceHeap
		waiting [maxRows][]int // by row count, in arrival order
		seq     = make([]int, len(us))
		arrived int
		active  []int
		// The captions' units are parts of one array.
		arena = make([]int, 0, len(us)+len(us)/2)
		cur   capt
		open  bool
	)
	p.caps = make([]capt, 0, len(us)+len(us)/4)
	for i := range us {
		if us[i].part == 0 {
			firsts = append(firsts, i)
		}
	}
	slices.SortStableFunc(firsts, func(a, b int) int { return cmp.Compare(us[a].start, us[b].start) })
	later.us = us
	next := 0
	const never = int64(1) << 62
	for {
		t := never
		if next < len(firsts) {
			t = us[firsts[next]].start
		}
		if later.Len() > 0 {
			t = min(t, us[later.ids[0]].start)
		}
		for _, a := range active {
			t = min(t, us[a].end)
		}
		if t == never {
			break
		}
		changed := false
		active = slices.DeleteFunc(active, func(a int) bool {
			gone := us[a].end <= t
			changed = changed || gone
			return gone
		})
		rowsUsed := 0
		for _, a := range active {
			rowsUsed += len(us[a].rows)
		}
		arrive := func(u int) {
			seq[u] = arrived
			arrived++
			if rowsUsed+len(us[u].rows) > maxRows || waitingAny(&waiting) {
				us[u].waited = cuesOf(us, active)
			}
			n := len(us[u].rows) - 1
			waiting[n] = append(waiting[n], u)
		}
		for next < len(firsts) && us[firsts[next]].start <= t {
			arrive(firsts[next])
			next++
		}
		for later.Len() > 0 && us[later.ids[0]].start <= t {
			arrive(heap.Pop(&later).(int))
		}
		// Admit, earliest arrival first, whatever fits in the rows free.
		for {
			pick := -1
			for n := range maxRows - rowsUsed {
				if len(waiting[n]) > 0 && (pick < 0 || seq[waiting[n][0]] < seq[waiting[pick][0]]) {
					pick = n
				}
			}
			if pick < 0 {
				break
			}
			u := waiting[pick][0]
			waiting[pick] = waiting[pick][1:]
			if d := t - us[u].start; d > 0 {
				// It keeps its end while at least half its time is left,
				// and its duration after that.
				if dur := us[u].end - us[u].start; 2*(us[u].end-t) < dur {
					us[u].end = t + dur
				}
				us[u].start = t
			} else {
				us[u].waited = nil
			}
			active = append(active, u)
			rowsUsed += len(us[u].rows)
			changed = true
			if n := u + 1; n < len(us) && us[n].src == us[u].src {
				us[n].end += max(us[u].end, us[n].start) - us[n].start
				us[n].start = max(us[u].end, us[n].start)
				heap.Push(&later, n)
			}
		}
		if !changed {
			continue
		}
		if open {
			cur.wantEnd = t
			p.caps = append(p.caps, cur)
		}
		open = len(active) > 0
		if open {
			from := len(arena)
			arena = append(arena, active...)
			cur = capt{units: arena[from:len(arena):len(arena)], want: t}
		}
	}
	rows := 0
	for i := range p.caps {
		for _, u := range p.caps[i].units {
			rows += len(us[u].rows)
		}
	}
	lines := make([]line, 0, rows)
	for i := range p.caps {
		lines = p.layOut(&p.caps[i], lines)
	}
}

// waitingAny reports whether a unit is waiting.
func waitingAny(w *[maxRows][]int) bool {
	for _, q := range w {
		if len(q) > 0 {
			return true
		}
	}
	return false
}

// cuesOf returns the cues of units, each once, in order.
func cuesOf(us []unit, units []int) []int {
	var out []int
	for _, u := range units {
		out = append(out, us[u].src)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// layOut places the rows of c's units on the screen and loads them: each
// area's units stacked in the order they came on screen, the bottom ones
// ending on row 15, the top ones from row 1, the middle ones around row 8;
// each row in its unit's alignment. c's lines are appended to arena,
// which is returned.
func (p *plan) layOut(c *capt, arena []line) []line {
	var n [3]int
	for _, u := range c.units {
		n[areaIndex(p.units[u].area)] += len(p.units[u].rows)
	}
	var at [3]int
	for k := range n {
		at[k] = firstRow(areaName[k], n[k])
	}
	from := len(arena)
	for _, u := range c.units {
		un := &p.units[u]
		k := areaIndex(un.area)
		for r := range un.rows {
			arena = append(arena, line{r: &un.rows[r], at: at[k], col: column(un.rows[r].width(), un.align)})
			at[k]++
		}
	}
	c.lines = arena[from:len(arena):len(arena)]
	if len(c.units) > 1 {
		slices.SortStableFunc(c.lines, func(a, b line) int { return a.at - b.at })
	}
	c.load, c.tied = loadCaption(c.lines)
	return arena
}

// areaName is a read-only table of the areas, top to bottom.
var areaName = [3]string{caption.AreaTop, caption.AreaMiddle, caption.AreaBottom}

func areaIndex(area string) int {
	switch area {
	case caption.AreaTop:
		return 0
	case caption.AreaMiddle:
		return 1
	}
	return 2
}

// pieceHeap holds the pieces of split cues waiting for their start, the
// earliest first.
type pieceHeap struct {
	us  []unit
	ids []int
}

func (h *pieceHeap) Len() int { return len(h.ids) }
func (h *pieceHeap) Less(i, j int) bool {
	a, b := &h.us[h.ids[i]], &h.us[h.ids[j]]
	return a.start < b.start || a.start == b.start && h.ids[i] < h.ids[j]
}
func (h *pieceHeap) Swap(i, j int) { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *pieceHeap) Push(x any)    { h.ids = append(h.ids, x.(int)) }
func (h *pieceHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}
