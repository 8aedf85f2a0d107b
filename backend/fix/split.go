package fix

import (
	"github.com/captionqa/captionqa/backend/rules"
	"slices"

	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// piece is the words [lo, hi) of a cue being split, with their times.
type piece struct {
	lo, hi     int
	start, end int64
}

// Split scoring: a stronger boundary class is worth this much…
const classWeight = 400

// …and a piece further from half the characters costs up to half of
// balanceWeight, so a sentence end beats a clause boundary unless it
// leaves one piece with under a fifth of the text.
const balanceWeight = 1000

// layout re-wraps and splits cues that break a line or duration limit
// (auto-split-sentences and auto-split-cps), and with BalanceLines
// re-breaks two-line cues the line_unbalanced rule flags. Other cues keep
// their author's line breaks.
//
// Pieces are put in place once every cue is laid out, in the cue array
// itself, moving the cues after each split up from the back: layoutCue(i)
// edits only cue i and reads only cues i and i+1, so a later move sees
// what an immediate one would, and a 40,000-cue track is not copied again
// for a few splits.
func (f *fixer) layout() {
	type split struct {
		at     int
		pieces []caption.Cue
	}
	var splits []split
	added := 0
	for i := range f.cues {
		if pieces := f.layoutCue(i); pieces != nil {
			splits = append(splits, split{i, pieces})
			added += len(pieces) - 1
		}
	}
	if len(splits) == 0 {
		return
	}
	f.ownSrc()
	n := len(f.cues)
	f.cues = slices.Grow(f.cues, added)[:n+added]
	f.src = slices.Grow(f.src, added)[:n+added]
	f.m = slices.Grow(f.m, added)[:n+added]
	w := n + added // the slots from w on are filled
	for i, s := n-1, len(splits)-1; s >= 0; i-- {
		if splits[s].at != i {
			w--
			f.cues[w], f.src[w], f.m[w] = f.cues[i], f.src[i], f.m[i]
			continue
		}
		ps, src := splits[s].pieces, f.src[i]
		w -= len(ps)
		copy(f.cues[w:], ps)
		for k := range ps {
			f.src[w+k], f.m[w+k] = src, scan(ps[k].Text)
		}
		s--
	}
}

// layoutCue re-wraps cue i in place when its lines break a limit, and
// returns its pieces when it must be split; nil means it stays one cue.
func (f *fixer) layoutCue(i int) []caption.Cue {
	c := &f.cues[i]
	tg := &f.tg
	lines, longest := int(f.m[i].lines), int(f.m[i].longest)
	needLines := (tg.MaxLines > 0 && lines > tg.MaxLines) || (tg.MaxCharsPerLine > 0 && longest > tg.MaxCharsPerLine)
	needTime := tg.MaxDurationMs > 0 && c.EndMs-c.StartMs > tg.MaxDurationMs
	if !needLines && !needTime {
		if tg.BalanceLines && lines == 2 && rules.PoorLineBreak(c.Text) {
			f.rebalance(i)
		}
		return nil
	}
	f.ws = tokenize(c.Text, f.ws)
	ws := f.ws
	if len(ws) == 0 {
		return nil
	}
	if hasLabelChars(c.Text) {
		markLabels(c.Text, ws)
	}
	if hasSpeakerLabel(c.Spans) {
		markSpeakers(c.Text, ws, c.Spans)
	}
	f.markTurns(c.Text, ws)
	f.pieces = f.pieces[:0]
	// A cue that runs into the next one is not split: a later piece would
	// start after the next cue and the text would change order.
	if i+1 == len(f.cues) || c.EndMs <= f.cues[i+1].StartMs {
		// cum is [fixer.wrap]'s pre over the whole cue.
		f.cum = f.ints(&f.cum, len(ws)+1)
		for k := range ws {
			f.cum[k+1] = f.cum[k] + ws[k].sep() + ws[k].chars
		}
		f.split(c.Text, ws, 0, len(ws), c.StartMs, c.EndMs)
	} else {
		f.pieces = append(f.pieces, piece{0, len(ws), c.StartMs, c.EndMs})
	}
	code := codeTooLong
	switch {
	case tg.MaxCharsPerLine > 0 && longest > tg.MaxCharsPerLine:
		code = codeLineTooLong
	case tg.MaxLines > 0 && lines > tg.MaxLines:
		code = codeTooManyLines
	}
	if len(f.pieces) == 1 {
		if !needLines {
			return nil
		}
		f.rewrap(c.Text, ws, 0)
		text := render(c.Text, ws)
		if text == c.Text {
			return nil
		}
		if after := lineCount(text); after == lines {
			f.record(code, f.srcOf(i), ActionRewrap, "re-wrapped its %s", nLines(lines))
		} else {
			f.record(code, f.srcOf(i), ActionRewrap, "re-wrapped %s into %s", nLines(lines), nLines(after))
		}
		c.Spans = remapSpans(c.Spans, ws)
		c.Text = text
		f.m[i] = scan(text)
		return nil
	}
	out := make([]caption.Cue, len(f.pieces))
	dropped := 0
	for k, p := range f.pieces {
		pw, d := f.dropDash(c.Text, ws, p)
		if d {
			dropped++
		}
		f.rewrap(c.Text, pw, p.lo+len(ws[p.lo:p.hi])-len(pw))
		nc := cloneCue(c)
		nc.Text = render(c.Text, pw)
		nc.Spans = remapSpans(c.Spans, pw)
		nc.StartMs, nc.EndMs = p.start, p.end
		if c.ID != "" {
			nc.ID = c.ID + "-" + strconv.Itoa(k+1)
		}
		out[k] = nc
	}
	if f.level >= levelC && tg.MaxCPS > 0 && !f.retime(i, out, tg) && f.firmCPS() && f.tg.Suggested != 0 {
		// Suggested durations and gaps give way to an enforced
		// reading speed.
		hard := *tg
		if f.soft(LimitMinDuration) {
			hard.MinDurationMs = 0
		}
		if f.soft(LimitMaxDuration) {
			hard.MaxDurationMs = 0
		}
		if f.soft(LimitMinGap) {
			hard.MinGapMs = 0
		}
		f.retime(i, out, &hard)
	}
	var times strings.Builder
	for k := range out {
		if k > 0 {
			times.WriteString(", ")
		}
		fmt.Fprintf(&times, "%s–%s", clock(out[k].StartMs), clock(out[k].EndMs))
	}
	if dropped > 0 {
		// The only text a fix removes: say so where it happens.
		fmt.Fprintf(&times, "; %s: each speaker has a cue of their own", nDashes(dropped))
	}
	f.record(code, f.srcOf(i), ActionSplit, "split into %d cues: %s", len(out), times.String())
	return out
}

// retime re-shares the time of cue i among its pieces out when one of
// them reads faster than MaxCPS of tg: each piece gets what its own text
// needs (and MinDurationMs), MinGapMs between pieces, and the rest in
// proportion to characters, no piece over MaxDurationMs. When the cue's
// time is too short for that, the end moves into the gap after the cue
// (keeping MinGapMs before the next one); when even that is not enough,
// the pieces keep their proportional times and the excess is reported.
// It reports false in that case, true when every piece meets MaxCPS.
func (f *fixer) retime(i int, out []caption.Cue, tg *Targets) bool {
	over := false
	for k := range out {
		n := chars(out[k].Text)
		over = over || float64(n)*1000 > tg.MaxCPS*float64(out[k].EndMs-out[k].StartMs)
	}
	if !over {
		return true
	}
	p := len(out)
	gap := tg.MinGapMs
	start, end := out[0].StartMs, out[p-1].EndMs
	if cap(f.times) < p {
		f.times = make([]int64, p)
	}
	times := f.times[:p]
	need := int64(p-1) * gap
	var total int64
	for k := range out {
		n := chars(out[k].Text)
		times[k] = max(needMs(n, tg.MaxCPS), tg.MinDurationMs)
		if tg.MaxDurationMs > 0 && times[k] > tg.MaxDurationMs {
			return false // this piece cannot meet both limits: leave the split as made
		}
		need += times[k]
		total += int64(n)
	}
	if need > end-start {
		limit := int64(math.MaxInt64)
		if i+1 < len(f.cues) {
			limit = f.cues[i+1].StartMs - gap
		}
		if start+need > limit {
			return false
		}
		f.record(codeReadingSpeed, f.srcOf(i), ActionExtendEnd, "end moved from %s to %s so that every piece of the split meets the reading speed", clock(end), clock(start+need))
		end = start + need
	}
	rest := end - start - need
	at := start
	for k := range out {
		d := times[k]
		if total > 0 && rest > 0 {
			d += rest * int64(chars(out[k].Text)) / total
		}
		if k == p-1 {
			d = max(times[k], end-at) // the rounding remainder
		}
		if tg.MaxDurationMs > 0 {
			d = min(d, max(tg.MaxDurationMs, times[k]))
		}
		out[k].StartMs, out[k].EndMs = at, at+d
		at += d + gap
	}
	return true
}

// rebalance re-breaks the two lines of cue i, which the line_unbalanced
// rule flags, when a break it does not flag fits the width.
func (f *fixer) rebalance(i int) {
	c := &f.cues[i]
	f.ws = tokenize(c.Text, f.ws)
	ws := f.ws
	if len(ws) < 2 {
		return
	}
	if hasLabelChars(c.Text) {
		markLabels(c.Text, ws)
	}
	if hasSpeakerLabel(c.Spans) {
		markSpeakers(c.Text, ws, c.Spans)
	}
	width := f.tg.MaxCharsPerLine
	f.wrap(c.Text, ws, width, 2)
	text := render(c.Text, ws)
	if text == c.Text || lineCount(text) != 2 || rules.PoorLineBreak(text) {
		return
	}
	m := scan(text)
	if width > 0 && int(m.longest) > width {
		return
	}
	k := 1
	for !ws[k].brk {
		k++
	}
	f.record(codeLineUnbalance, f.srcOf(i), ActionRewrap, "moved the line break to after %q", c.Text[ws[k-1].b0:ws[k-1].b1])
	c.Spans = remapSpans(c.Spans, ws)
	c.Text = text
	f.m[i] = m
}

// markTurns finds dialogue turns: the first word, each word that starts
// a line with a dialogue dash, and each speaker label (see
// [markSpeakers]). The cue is a dialogue when it has more than one turn.
//
// A dash that opens a line is a dialogue dash only when the cue's first
// line opens with one too ([rules.DashDialogue]): in "I was going to
// tell you\n— but never mind" the dash is punctuation, an interruption
// of the one speaker, and neither a split point of its own nor a dash the
// split may drop.
func (f *fixer) markTurns(s string, ws []word) {
	if cap(f.turn) < len(ws) {
		f.turn = make([]bool, len(ws))
	}
	f.turn = f.turn[:len(ws)]
	f.dialogue = false
	dashes := rules.DashDialogue(s)
	for k, w := range ws {
		// A label right after another (a slip of the source) starts no
		// turn: the first label would be left with no words.
		f.turn[k] = k == 0 || w.speaker && !w.held || (dashes && w.brk && rules.DialogueDash(s[w.b0:w.b1]) > 0)
		f.dialogue = f.dialogue || (k > 0 && f.turn[k])
	}
}

// hardTurn reports whether word k of a dialogue starts a turn that must
// start a line: a dialogue dash means a new speaker only there. A speaker
// label says so anywhere, so its turn starts a line only when the turns
// fit MaxLines that way (see [fixer.turnLines]).
func (f *fixer) hardTurn(ws []word, k int) bool {
	return f.dialogue && f.turn[k] && !ws[k].speaker
}

// labelTurns reports whether pw (words of the cue from ws index lo on)
// holds a speaker label's turn after its first word.
func (f *fixer) labelTurns(pw []word, lo int) bool {
	if !f.dialogue {
		return false
	}
	for j := 1; j < len(pw); j++ {
		if pw[j].speaker && f.turn[lo+j] {
			return true
		}
	}
	return false
}

// turnLines counts the lines pw (words of the cue from ws index lo on)
// takes with every turn, speaker labels' too, starting a line.
func (f *fixer) turnLines(pw []word, lo int) int {
	n, a := 0, 0
	for b := 1; b <= len(pw); b++ {
		if b < len(pw) && !(f.dialogue && f.turn[lo+b]) {
			continue
		}
		n += minLines(pw[a:b], f.tg.MaxCharsPerLine)
		a = b
	}
	return n
}

// turnsNeedSplit reports whether pw (words of the cue from ws index lo
// on) holds a speaker label's turn and cannot give every turn lines of
// its own within MaxLines: like sentences, the turns are then cut apart
// where the times allow, even when the text would fit with the turns
// sharing lines.
func (f *fixer) turnsNeedSplit(pw []word, lo int) bool {
	return f.tg.MaxLines > 0 && f.labelTurns(pw, lo) && f.turnLines(pw, lo) > f.tg.MaxLines
}

// split cuts words [lo, hi) into pieces until each fits the line and
// duration limits, appending them to f.pieces in order. It cuts at the
// best-scoring gap (speaker change, then sentence end, then clause
// boundary, then the best line-break point, each nearer the middle
// scoring higher), shares the time in proportion to characters with
// MinGapMs taken from between the pieces, and never makes a piece shorter
// than MinDurationMs: such a cut is not made, which is the same as merging
// the short piece back into its neighbour, except at a speaker change in a
// range that must be cut, where the short turn takes MinDurationMs from
// the other piece when both then meet it (and an enforced MaxCPS). A range of several sentences
// that cannot have a line (or more) per sentence within MaxLines is cut at
// a sentence end even when it would fit joined up (DCMP line division),
// and one whose speakers cannot each have lines of their own is cut at a
// speaker label. A cut never falls inside a sound label or lyric span
// while any other cut is possible, and never inside or right after a
// speaker label.
func (f *fixer) split(s string, ws []word, lo, hi int, start, end int64) {
	if hi-lo < 2 {
		f.pieces = append(f.pieces, piece{lo, hi, start, end})
		return
	}
	minClass := gapWord
	if !f.tooBig(s, ws, lo, hi, start, end) {
		switch {
		case f.turnsNeedSplit(ws[lo:hi], lo):
			minClass = gapTurn
		case f.sentencesNeedSplit(s, ws[lo:hi]):
			minClass = gapSentence
		default:
			f.pieces = append(f.pieces, piece{lo, hi, start, end})
			return
		}
	}
	gap, minDur := f.tg.MinGapMs, f.tg.MinDurationMs
	if gap > 0 && f.soft(LimitMinGap) && f.overCPS(f.cum[hi]-f.cum[lo]-ws[lo].sep(), end-start-gap) {
		gap = 0 // a suggested gap takes no time an enforced reading speed needs
	}
	best, left := f.bestCut(s, ws, lo, hi, start, end, minClass, false, minDur, gap)
	if best < 0 {
		best, left = f.bestCut(s, ws, lo, hi, start, end, minClass, true, minDur, gap)
	}
	if best < 0 && minDur > 0 && f.soft(LimitMinDuration) && f.mustSplit(s, ws, lo, hi, start, end) {
		// A suggested minimum duration gives way to the split an
		// enforced line or duration limit needs.
		best, left = f.bestCut(s, ws, lo, hi, start, end, minClass, false, 0, gap)
		if best < 0 {
			best, left = f.bestCut(s, ws, lo, hi, start, end, minClass, true, 0, gap)
		}
	}
	if best < 0 {
		f.pieces = append(f.pieces, piece{lo, hi, start, end})
		return
	}
	f.split(s, ws, lo, best, start, start+left)
	f.split(s, ws, best, hi, start+left+gap, end)
}

// bestCut finds the best gap to cut words [lo, hi) at, of class minClass
// or stronger, and the time of the left piece, gap ms kept between the
// pieces; -1 when no cut leaves both pieces at least minDur. Gaps inside
// labels count only with inLabels.
func (f *fixer) bestCut(s string, ws []word, lo, hi int, start, end int64, minClass int, inLabels bool, minDur, gap int64) (int, int64) {
	avail := end - start - gap
	best, bestScore, bestLeft := -1, math.Inf(-1), int64(0)
	for i := lo + 1; i < hi && avail >= 2; i++ {
		if ws[i].held || ws[i].label && !inLabels {
			continue
		}
		total := int64(f.cum[hi] - f.cum[lo] - ws[lo].sep() - ws[i].sep()) // without the space at the cut
		cl := int64(f.cum[i] - f.cum[lo] - ws[lo].sep())
		left := avail / 2
		if total > 0 {
			left = (avail*cl + total/2) / total
		}
		right := avail - left
		class := gapClass(s[ws[i-1].b0:ws[i-1].b1], s[ws[i].b0:ws[i].b1])
		if f.dialogue && f.turn[i] {
			class = gapTurn
		}
		if class < minClass {
			continue
		}
		if class == gapTurn && minClass == gapWord && (left < minDur || right < minDur) && avail >= 2*minDur {
			// Where the range must be cut somewhere, a short turn
			// ("Ann: Yes.") takes the time it needs from the other
			// piece, within an enforced reading speed: a cut a few words
			// into a speaker's sentence reads worse. A range cut only to
			// give each speaker lines of their own shares them instead.
			l, r := max(left, minDur), max(right, minDur)
			if l > left {
				r = avail - l
			} else {
				l = avail - r
			}
			if !f.overCPS(int(cl), l) && !f.overCPS(int(total-cl), r) {
				left, right = l, r
			}
		}
		if left < 1 || right < 1 || left < minDur || right < minDur {
			continue
		}
		score := float64(classWeight * class)
		if total > 0 {
			score -= balanceWeight * math.Abs(float64(cl)/float64(total)-0.5)
		}
		if class == gapWord {
			score -= breakCost(s, ws, i) / 10
		}
		if score > bestScore {
			best, bestScore, bestLeft = i, score, left
		}
	}
	return best, bestLeft
}

// mustSplit reports whether words [lo, hi) over [start, end] break an
// enforced duration or line limit, which a suggestion must not keep them
// from being split for.
func (f *fixer) mustSplit(s string, ws []word, lo, hi int, start, end int64) bool {
	if f.tg.MaxDurationMs > 0 && !f.soft(LimitMaxDuration) && end-start > f.tg.MaxDurationMs {
		return true
	}
	return f.tg.MaxLines > 0 && !f.soft(LimitMaxLines) && f.linesNeeded(s, ws, lo, hi) > f.tg.MaxLines
}

// tooBig reports whether words [lo, hi) over [start, end] break the
// duration limit or need more lines than allowed, re-wrapped.
func (f *fixer) tooBig(s string, ws []word, lo, hi int, start, end int64) bool {
	if f.tg.MaxDurationMs > 0 && end-start > f.tg.MaxDurationMs {
		return true
	}
	return f.tg.MaxLines > 0 && f.linesNeeded(s, ws, lo, hi) > f.tg.MaxLines
}

// linesNeeded counts the lines words [lo, hi) take when re-wrapped, each
// dialogue turn opened by a dash starting its own line (speaker labels may
// share a line: see [fixer.turnsNeedSplit]); a single run of lines counts
// the lines it needs without a bad break when a few more lines avoid one.
func (f *fixer) linesNeeded(s string, ws []word, lo, hi int) int {
	n, a := 0, lo
	for b := lo + 1; b <= hi; b++ {
		if b < hi && !f.hardTurn(ws, b) {
			continue
		}
		if a == lo && b == hi {
			n += f.goodLines(s, ws[a:b], f.tg.MaxCharsPerLine, f.tg.MaxLines)
		} else {
			n += minLines(ws[a:b], f.tg.MaxCharsPerLine)
		}
		a = b
	}
	return n
}

// sentenceEnds appends to ends the indexes of pw that start a sentence
// after the first (gaps of class gapSentence, not inside a label).
func sentenceEnds(s string, pw []word, ends []int) []int {
	ends = ends[:0]
	for j := 1; j < len(pw); j++ {
		if !pw[j].label && !pw[j].held && gapClass(s[pw[j-1].b0:pw[j-1].b1], s[pw[j].b0:pw[j].b1]) == gapSentence {
			ends = append(ends, j)
		}
	}
	return ends
}

// sentenceLines is how many lines pw takes with every sentence starting a
// line; 0 when pw is one sentence, or a dialogue (its turns make lines).
func (f *fixer) sentenceLines(s string, pw []word) int {
	if f.dialogue || (f.tg.MaxLines <= 0 && f.tg.MaxCharsPerLine <= 0) {
		return 0
	}
	f.ends = sentenceEnds(s, pw, f.ends)
	if len(f.ends) == 0 {
		return 0
	}
	n, a := 0, 0
	for k := 0; k <= len(f.ends); k++ {
		b := len(pw)
		if k < len(f.ends) {
			b = f.ends[k]
		}
		n += minLines(pw[a:b], f.tg.MaxCharsPerLine)
		a = b
	}
	return n
}

// sentencesNeedSplit reports whether pw holds several sentences that
// cannot each start a line within MaxLines.
func (f *fixer) sentencesNeedSplit(s string, pw []word) bool {
	n := f.sentenceLines(s, pw)
	return n > 0 && f.tg.MaxLines > 0 && n > f.tg.MaxLines
}

// sentenceLayout breaks pw with every sentence starting a line, each
// sentence wrapped on as few lines as fit, when pw holds several sentences
// and that stays within MaxLines; it reports whether it did.
func (f *fixer) sentenceLayout(s string, pw []word) bool {
	n := f.sentenceLines(s, pw)
	if n == 0 || f.tg.MaxLines > 0 && n > f.tg.MaxLines {
		return false
	}
	// f.ends holds the sentence starts sentenceLines found; wrap does not
	// touch it.
	a := 0
	for k := 0; k <= len(f.ends); k++ {
		b := len(pw)
		if k < len(f.ends) {
			b = f.ends[k]
		}
		seg := pw[a:b]
		f.wrap(s, seg, f.tg.MaxCharsPerLine, minLines(seg, f.tg.MaxCharsPerLine))
		seg[0].brk = a > 0
		a = b
	}
	return true
}

// dropDash returns the words of p, without the leading dialogue dash when
// p is exactly one speaker's turn of a dialogue cue: once each speaker has
// a cue of their own the dash means nothing. It reports whether it dropped
// one. A speaker label is kept: it still says who speaks.
func (f *fixer) dropDash(s string, ws []word, p piece) ([]word, bool) {
	pw := ws[p.lo:p.hi]
	if !f.dialogue || !f.turn[p.lo] || pw[0].speaker {
		return pw, false
	}
	for k := p.lo + 1; k < p.hi; k++ {
		if f.turn[k] {
			return pw, false
		}
	}
	w := &pw[0]
	d := rules.DialogueDash(s[w.b0:w.b1])
	switch {
	case d == 0:
		return pw, false
	case d < w.b1-w.b0:
		w.b0 += d
		w.r0++
		w.chars = chars(s[w.b0:w.b1])
	case len(pw) > 1:
		pw = pw[1:]
	default:
		return pw, false
	}
	return pw, true
}

// rewrap breaks pw (words of s; ws index lo onwards) into balanced lines
// of at most MaxCharsPerLine, each dialogue turn on lines of its own, and
// each sentence of a single turn on lines of its own when MaxLines allows.
// A turn a speaker label opens starts a line only when every turn can
// within MaxLines; otherwise the label stays inside a run of lines wrapped
// together, where a break before it is preferred ([bonusTurn]). Without a
// width limit, a single run keeps its number of lines, capped at MaxLines.
func (f *fixer) rewrap(s string, pw []word, lo int) {
	authorLines := 1
	for _, w := range pw[1:] {
		if w.brk {
			authorLines++
		}
	}
	width := f.tg.MaxCharsPerLine
	pw[0].brk = false
	if !f.dialogue && f.sentenceLayout(s, pw) {
		return
	}
	// Every turn starts a line, unless that breaks MaxLines for a label's.
	every := !f.turnsNeedSplit(pw, lo)
	a := 0
	for b := 1; b <= len(pw); b++ {
		if b < len(pw) && !(f.dialogue && f.turn[lo+b] && (every || !pw[b].speaker)) {
			continue
		}
		seg := pw[a:b]
		k, kmax := 1, 1
		switch {
		case width > 0 && a == 0 && b == len(pw) && f.soft(LimitMaxCharsPerLine) && f.tg.MaxLines > 0 &&
			minLines(seg, width) > max(f.tg.MaxLines, authorLines):
			// A cue that cannot be split (it runs into the next, or its
			// time is too short) and needs more lines than MaxLines at a
			// suggested width gives way to MaxLines, as breakLongLines
			// does: no more lines than it may have, or had.
			f.breakWithin(s, seg, width, minLines(seg, width), max(f.tg.MaxLines, authorLines))
			a = b
			continue
		case width > 0:
			k = minLines(seg, width)
			kmax = k
			if a == 0 && b == len(pw) {
				kmax = k + 1
				if f.tg.MaxLines > 0 {
					kmax = f.tg.MaxLines
				}
			}
		case a == 0 && b == len(pw):
			k = authorLines
			if f.tg.MaxLines > 0 {
				k = min(k, f.tg.MaxLines)
			}
			kmax = k
		}
		f.wrapBest(s, seg, width, k, kmax)
		if a > 0 {
			pw[a].brk = true
		}
		a = b
	}
}

// nDashes says how many dialogue dashes a split dropped.
func nDashes(n int) string {
	if n == 1 {
		return "dropped the dialogue dash opening a speaker's line"
	}
	return fmt.Sprintf("dropped the %d dialogue dashes opening the speakers' lines", n)
}

// splittable reports whether c has more than one word (unspaced writing
// may have several without a space), so a split could share borrowed time
// among pieces.
func (f *fixer) splittable(c *caption.Cue) bool {
	s := strings.TrimSpace(c.Text)
	return strings.IndexFunc(s, func(r rune) bool { return r == ' ' || r == '\n' }) >= 0 || len(rules.UnspacedBreaks(s, nil)) > 0
}
