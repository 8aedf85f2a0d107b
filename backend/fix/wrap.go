package fix

import (
	"github.com/captionqa/captionqa/backend/rules"

	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Break penalties, in the same unit as the squared difference between a
// line's length and the balanced length. Netflix, the BBC and DCMP agree
// that linguistic quality outranks geometry, so a good break point is worth
// several characters of imbalance and a bad one is taken only when nothing
// else fits.
const (
	bonusTurn        = -2000 // before another speaker's dash or label
	bonusSentence    = -300
	bonusClause      = -200
	bonusBeforeJoin  = -80  // before a conjunction or preposition
	costAfterArticle = 5000 // after an article or determiner
	costAfterJoin    = 4000 // after a conjunction, preposition or auxiliary
	costAdjNoun      = 2500 // after a common adjective, before its noun
	costAfterArtWord = 600  // "the door / opened": maybe inside a noun phrase
	costAfterI       = 2000 // "if I / were you": a subject pronoun apart from its verb
	costShape        = 3000 // a top line the line_unbalanced rule finds much too long
	costAfterDash    = 100000
	// costAfterLabelWord: "Bob: I / agree." leaves a speaker's first word
	// alone with the label; a bad break (see costBad).
	costAfterLabelWord = costBad
	costInLabel        = 200000 // inside [a sound label] or a ♪ lyric ♪
	// costBad is where a break becomes one the style guides forbid (and
	// the line_unbalanced rule flags): the wrapper takes another line, and
	// the splitter another cue, rather than make it. costAfterI stays
	// below it but above any line-length difference two lines within a
	// width of 42 can make (about 900) plus a clean break's cost, so a
	// line ends on "I" only when no clean break fits.
	costBad = 2400
	// maxBalancedLines bounds the balanced search; longer runs of text
	// (only hostile input) are filled greedily, keeping Apply linear.
	maxBalancedLines = 6
)

// breakCost scores breaking the line before ws[i] (0 < i < len(ws)):
// +Inf inside a speaker label or right after one, which no layout uses
// while another exists.
func breakCost(s string, ws []word, i int) float64 {
	l, r := &ws[i-1], &ws[i]
	lw, rw := s[l.b0:l.b1], s[r.b0:r.b1]
	if r.held {
		return math.Inf(1) // a speaker label apart from its words
	}
	cost := 0.0
	if r.label {
		cost += costInLabel
	}
	if rules.DialogueDash(lw) == len(lw) {
		return cost + costAfterDash
	}
	if r.speaker || r.brk && rules.DialogueDash(rw) > 0 {
		return cost + bonusTurn
	}
	switch gapClass(lw, rw) {
	case gapSentence:
		return cost + bonusSentence
	case gapClause:
		return cost + bonusClause
	}
	if r.tight {
		return cost + unspacedCost(lw, rw)
	}
	if afterLabelWord(s, ws, i) {
		return cost + costAfterLabelWord
	}
	if lw == "I" {
		// Below costBad, unlike the function words: the line_unbalanced
		// rule does not report a line ending on "I", so the wrapper
		// prefers any other break of about the same shape but takes no
		// extra line and no split to avoid it.
		return cost + costAfterI
	}
	lc, rc := wordClass(lw), wordClass(rw)
	if demonstrative(lw) && rc&(classConjunction|classPreposition) != 0 {
		// "do that / if I were you": a demonstrative before a
		// conjunction or preposition is a pronoun closing its phrase.
		return cost + bonusBeforeJoin
	}
	content := rc&(classArticle|classConjunction|classPreposition|classAuxiliary|classAbbrev) == 0 && startsLetter(rw)
	switch {
	case lc&classArticle != 0:
		cost += costAfterArticle
	case lc&(classConjunction|classPreposition|classAuxiliary) != 0:
		cost += costAfterJoin
	case lc&classAdjective != 0 && content:
		cost += costAdjNoun
	case i >= 2 && content && wordClass(s[ws[i-2].b0:ws[i-2].b1])&classArticle != 0 && isLetters(lw):
		cost += costAfterArtWord
	}
	if rc&(classConjunction|classPreposition) != 0 {
		cost += bonusBeforeJoin
	}
	return cost
}

// afterLabelWord reports whether ws[i-1] is the word right after a
// speaker label (see [markSpeakers]).
func afterLabelWord(s string, ws []word, i int) bool {
	if i < 2 || !ws[i-1].held || ws[i-1].speaker {
		return false
	}
	p := &ws[i-2]
	return (p.speaker || p.held) && s[p.b1-1] == ':'
}

// demonstrative reports whether w is this, that, these or those (any
// case).
func demonstrative(w string) bool {
	for _, d := range [...]string{"this", "that", "these", "those"} {
		if strings.EqualFold(w, d) {
			return true
		}
	}
	return false
}

// startsLetter reports whether w begins with a letter.
func startsLetter(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r)
}

// isLetters reports whether w is letters only (no punctuation after it).
func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
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
		if cur+w.sep()+w.chars <= width {
			cur += w.sep() + w.chars
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
// It reports whether the layout needed a bad break (see costBad).
func (f *fixer) wrap(s string, ws []word, width, k int) (bad bool) {
	n := len(ws)
	if n < 2 {
		return false
	}
	k = min(max(k, 1), n)
	if k > maxBalancedLines {
		fillGreedy(ws, width)
		return false
	}
	for i := 1; i < n; i++ {
		ws[i].brk = false
	}
	if k == 1 {
		return false
	}
	// pre[i] is the length of words 0..i-1, each after its separator:
	// words i..j-1 make a line of pre[j]-pre[i]-ws[i].sep() characters.
	pre := f.ints(&f.pre, n+1)
	for i := range ws {
		pre[i+1] = pre[i] + ws[i].sep() + ws[i].chars
	}
	// gapCost[i] is the cost of a line starting at word i, worked out once
	// rather than in the search's inner loop.
	gapCost := f.floats(&f.gapCost, n)
	for i := 1; i < n; i++ {
		gapCost[i] = breakCost(s, ws, i)
	}
	target := float64(pre[n]-ws[0].sep()) / float64(k)
	if width <= 0 {
		// Without a width limit only the balance matters; bounding lines
		// at twice the balanced length keeps the search linear.
		width = int(2*target) + 1
	}
	if k == 2 {
		return f.wrapTwo(s, ws, width, target, pre, gapCost)
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
				length := pre[j] - pre[i] - ws[i].sep()
				if length > width && j-i > 1 {
					break
				}
				prev := cost[(l-1)*(n+1)+i]
				if math.IsInf(prev, 1) {
					continue
				}
				c := lineCost(length, target, j == n) + gapCost[i]
				if prev+c < best {
					best, arg = prev+c, i
				}
			}
			cost[l*(n+1)+j], from[l*(n+1)+j] = best, arg
		}
	}
	if from[k*(n+1)+n] < 0 {
		fillGreedy(ws, width)
		return false
	}
	for l, j := k, n; l > 1; l-- {
		i := from[l*(n+1)+j]
		ws[i].brk = true
		bad = bad || gapCost[i] >= costBad
		j = i
	}
	return bad
}

// lineCost is the geometric cost of a line of length chars where the
// balanced length is target: the squared difference, three times over
// for a line longer than the balance that is not the last.
func lineCost(length int, target float64, last bool) float64 {
	d := float64(length) - target
	c := d * d
	if !last && d > 0 {
		c *= 3
	}
	return c
}

// wrapTwo is [fixer.wrap] for two lines: it tries every break, and adds
// to the break cost the shape test of the line_unbalanced rule (a top line
// more than twice as long as the bottom one and over 10 characters
// longer, unless the lines are two sentences: [rules.SentenceBreak]),
// which a line-by-line search cannot see.
func (f *fixer) wrapTwo(s string, ws []word, width int, target float64, pre []int, gapCost []float64) (bad bool) {
	n := len(ws)
	best, arg := math.Inf(1), -1
	argBad := false
	for i := 1; i < n; i++ {
		top, bottom := pre[i]-ws[0].sep(), pre[n]-pre[i]-ws[i].sep()
		if top > width && i > 1 {
			break
		}
		if bottom > width && i < n-1 {
			continue
		}
		c := lineCost(top, target, false) + lineCost(bottom, target, true) + gapCost[i]
		shape := rules.TopHeavy(top, bottom) && !ws[i].speaker && !rules.StartsTurn(s[ws[i].b0:ws[i].b1]) &&
			!rules.SentenceBreak(s[ws[0].b0:ws[i-1].b1], s[ws[i].b0:ws[n-1].b1])
		if shape {
			c += costShape
		}
		if c < best {
			best, arg, argBad = c, i, shape || gapCost[i] >= costBad
		}
	}
	if arg < 0 {
		fillGreedy(ws, width)
		return false
	}
	ws[arg].brk = true
	return argBad
}

// wrapBest wraps ws in k lines or, when those need a bad break and up to
// kmax lines avoid one, in the fewest lines that do. It returns the lines
// used.
func (f *fixer) wrapBest(s string, ws []word, width, k, kmax int) int {
	kmax = min(kmax, len(ws), maxBalancedLines)
	if !f.wrap(s, ws, width, k) {
		return k
	}
	for kk := k + 1; kk <= kmax; kk++ {
		if !f.wrap(s, ws, width, kk) {
			return kk
		}
	}
	if kmax > k {
		f.wrap(s, ws, width, k)
	}
	return k
}

// goodLines is how many lines the words need at width for a layout
// without a bad break, trying up to limit+1 lines; when none avoids one,
// it is [minLines]. It works on a copy: ws keep their breaks.
func (f *fixer) goodLines(s string, ws []word, width, limit int) int {
	k := minLines(ws, width)
	if width <= 0 || k > limit || len(ws) < 2 {
		return k
	}
	f.scratch = append(f.scratch[:0], ws...)
	return f.wrapBest(s, f.scratch, width, k, limit+1)
}

// wrapWithin wraps ws (the words of s) in k lines, for a width that is
// only suggested where more lines would break MaxLines: the lines run as
// far past width as k lines need ([fitWidth]), and, for two lines,
// further still when that avoids a bad break, at the narrowest width of
// the two-line layouts that give one (tried in order, at most
// [maxWiderTries] of them, so the time stays linear).
func (f *fixer) wrapWithin(s string, ws []word, width, k int) {
	w := fitWidth(ws, width, k)
	if !f.wrap(s, ws, w, k) || k != 2 {
		return
	}
	// The width of each two-line layout is its longer line: try the
	// narrower ones first.
	f.widths = f.widths[:0]
	top := ws[0].chars
	total := top
	for i := 1; i < len(ws); i++ {
		total += ws[i].sep() + ws[i].chars
	}
	for i := 1; i < len(ws); i++ {
		bottom := total - top - ws[i].sep()
		if m := max(top, bottom); m > w {
			f.widths = append(f.widths, m)
		}
		top += ws[i].sep() + ws[i].chars
	}
	slices.Sort(f.widths)
	f.widths = slices.Compact(f.widths)
	for _, ww := range f.widths[:min(len(f.widths), maxWiderTries)] {
		if !f.wrap(s, ws, ww, k) {
			return
		}
	}
	f.wrap(s, ws, w, k)
}

// maxWiderTries bounds the wider layouts [fixer.wrapWithin] tries.
const maxWiderTries = 8

// fitWidth is the least width, from width up, at which ws fit in k lines
// ([minLines]); minLines only falls as the width grows, so a binary search
// finds it.
func fitWidth(ws []word, width, k int) int {
	if minLines(ws, width) <= k {
		return width
	}
	hi := 0
	for i := range ws {
		hi += ws[i].sep() + ws[i].chars
	}
	lo := width // minLines(ws, lo) > k <= minLines(ws, hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if minLines(ws, mid) <= k {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// fillGreedy breaks ws as late as width allows, never inside a speaker
// label or right after one.
func fillGreedy(ws []word, width int) {
	cur := ws[0].chars
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		w.brk = width > 0 && cur+w.sep()+w.chars > width && !w.held
		if w.brk {
			cur = w.chars
		} else {
			cur += w.sep() + w.chars
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
