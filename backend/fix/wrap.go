package fix

import "math"

// Break penalties, in the same unit as the squared difference between a
// line's length and the balanced length. Netflix, the BBC and DCMP agree
// that linguistic quality outranks geometry, so a good break point is worth
// several characters of imbalance and a bad one is taken only when nothing
// else fits.
const (
	bonusTurn        = -2000 // before another speaker's dash
	bonusSentence    = -300
	bonusClause      = -200
	bonusBeforeJoin  = -80    // before a conjunction or preposition
	costAfterJoin    = 1000   // after a conjunction or preposition
	costAfterArticle = 5000   // after an article or determiner
	costAfterDash    = 100000 // between a dialogue dash and its words
	// maxBalancedLines bounds the balanced search; longer runs of text
	// (only hostile input) are filled greedily, keeping Apply linear.
	maxBalancedLines = 6
)

// breakCost scores breaking the line between words l and r of s.
func breakCost(s string, l, r word) float64 {
	lw, rw := s[l.b0:l.b1], s[r.b0:r.b1]
	if dashPrefix(lw) == len(lw) {
		return costAfterDash
	}
	if r.brk && dashPrefix(rw) > 0 {
		return bonusTurn
	}
	switch gapClass(lw, rw) {
	case gapSentence:
		return bonusSentence
	case gapClause:
		return bonusClause
	}
	cost := 0.0
	switch lc := wordClass(lw); {
	case lc&classArticle != 0:
		cost += costAfterArticle
	case lc&(classConjunction|classPreposition) != 0:
		cost += costAfterJoin
	}
	if wordClass(rw)&(classConjunction|classPreposition) != 0 {
		cost += bonusBeforeJoin
	}
	return cost
}

// minLines returns how many lines the words need at width (0: no limit),
// filling each line greedily; a word longer than width takes a line alone.
func minLines(ws []word, width int) int {
	if len(ws) == 0 {
		return 0
	}
	if width <= 0 {
		return 1
	}
	lines, cur := 1, ws[0].chars
	for _, w := range ws[1:] {
		if cur+1+w.chars <= width {
			cur += 1 + w.chars
			continue
		}
		lines++
		cur = w.chars
	}
	return lines
}

// wrap breaks ws (the words of s) into k lines that fit width where any
// break can make them fit, setting brk on ws[1:] and leaving ws[0] alone.
// Among the layouts with k lines it picks the one with the best break
// points and the most even lengths, preferring a bottom-heavy shape: a
// line longer than the balanced length costs more when it is not the last.
func (f *fixer) wrap(s string, ws []word, width, k int) {
	n := len(ws)
	if n < 2 {
		return
	}
	k = min(max(k, 1), n)
	if k > maxBalancedLines {
		fillGreedy(ws, width)
		return
	}
	for i := 1; i < n; i++ {
		ws[i].brk = false
	}
	if k == 1 {
		return
	}
	// pre[i] is the length of words 0..i-1, each followed by a space.
	pre := f.ints(&f.pre, n+1)
	for i, w := range ws {
		pre[i+1] = pre[i] + w.chars + 1
	}
	// gapCost[i] is the cost of a line starting at word i, worked out once
	// rather than in the search's inner loop.
	gapCost := f.floats(&f.gapCost, n)
	for i := 1; i < n; i++ {
		gapCost[i] = breakCost(s, ws[i-1], ws[i])
	}
	target := float64(pre[n]-1) / float64(k)
	if width <= 0 {
		// Without a width limit only the balance matters; bounding lines
		// at twice the balanced length keeps the search linear.
		width = int(2*target) + 1
	}
	// cost[l*(n+1)+j]: best cost of words 0..j-1 in l lines; from: where
	// the last of those lines starts.
	cost := f.floats(&f.cost, (k+1)*(n+1))
	from := f.ints(&f.from, (k+1)*(n+1))
	for i := range cost {
		cost[i] = math.Inf(1)
	}
	cost[0] = 0
	for l := 1; l <= k; l++ {
		for j := l; j <= n-(k-l); j++ {
			best, arg := math.Inf(1), -1
			for i := j - 1; i >= l-1; i-- {
				length := pre[j] - pre[i] - 1
				if length > width && j-i > 1 {
					break
				}
				prev := cost[(l-1)*(n+1)+i]
				if math.IsInf(prev, 1) {
					continue
				}
				d := float64(length) - target
				c := d * d
				if j < n && d > 0 {
					c *= 3
				}
				c += gapCost[i]
				if prev+c < best {
					best, arg = prev+c, i
				}
			}
			cost[l*(n+1)+j], from[l*(n+1)+j] = best, arg
		}
	}
	if from[k*(n+1)+n] < 0 {
		fillGreedy(ws, width)
		return
	}
	for l, j := k, n; l > 1; l-- {
		i := from[l*(n+1)+j]
		ws[i].brk = true
		j = i
	}
}

// fillGreedy breaks ws as late as width allows.
func fillGreedy(ws []word, width int) {
	cur := ws[0].chars
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		w.brk = width > 0 && cur+1+w.chars > width
		if w.brk {
			cur = w.chars
		} else {
			cur += 1 + w.chars
		}
	}
}

func (f *fixer) ints(p *[]int, n int) []int {
	if cap(*p) < n {
		*p = make([]int, n)
	}
	*p = (*p)[:n]
	return *p
}

func (f *fixer) floats(p *[]float64, n int) []float64 {
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return *p
}
