package fix

import (
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
// (auto-split-sentences and auto-split-cps). Cues within every limit keep
// their author's line breaks.
func (f *fixer) layout() {
	var out []caption.Cue
	var outSrc []int
	for i := range f.cues {
		pieces := f.layoutCue(i)
		if pieces == nil {
			if out != nil {
				out = append(out, f.cues[i])
				outSrc = append(outSrc, f.src[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]caption.Cue, 0, len(f.cues)+len(f.cues)/4+len(pieces)), f.cues[:i]...)
			outSrc = append(make([]int, 0, cap(out)), f.src[:i]...)
		}
		for range pieces {
			outSrc = append(outSrc, f.src[i])
		}
		out = append(out, pieces...)
	}
	if out != nil {
		clear(f.cues) // let the old array's texts go
		f.cues, f.src = out, outSrc
	}
}

// layoutCue re-wraps cue i in place when its lines break a limit, and
// returns its pieces when it must be split; nil means it stays one cue.
func (f *fixer) layoutCue(i int) []caption.Cue {
	c := &f.cues[i]
	tg := &f.tg
	lines, longest := measureLines(c.Text)
	needLines := (tg.MaxLines > 0 && lines > tg.MaxLines) || (tg.MaxCharsPerLine > 0 && longest > tg.MaxCharsPerLine)
	needTime := tg.MaxDurationMs > 0 && c.EndMs-c.StartMs > tg.MaxDurationMs
	if !needLines && !needTime {
		return nil
	}
	f.ws = tokenize(c.Text, f.ws)
	ws := f.ws
	if len(ws) == 0 {
		return nil
	}
	f.markTurns(c.Text, ws)
	f.pieces = f.pieces[:0]
	// A cue that runs into the next one is not split: a later piece would
	// start after the next cue and the text would change order.
	if i+1 == len(f.cues) || c.EndMs <= f.cues[i+1].StartMs {
		f.cum = f.ints(&f.cum, len(ws)+1)
		for k, w := range ws {
			f.cum[k+1] = f.cum[k] + w.chars + 1
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
		f.record(code, f.src[i], ActionRewrap, "re-wrapped %d lines into %d", lines, lineCount(text))
		c.Spans = remapSpans(c.Spans, ws)
		c.Text = text
		return nil
	}
	out := make([]caption.Cue, len(f.pieces))
	var times strings.Builder
	for k, p := range f.pieces {
		pw := f.dropDash(c.Text, ws, p)
		f.rewrap(c.Text, pw, p.lo+len(ws[p.lo:p.hi])-len(pw))
		nc := cloneCue(c)
		nc.Text = render(c.Text, pw)
		nc.Spans = remapSpans(c.Spans, pw)
		nc.StartMs, nc.EndMs = p.start, p.end
		if c.ID != "" {
			nc.ID = c.ID + "-" + strconv.Itoa(k+1)
		}
		out[k] = nc
		if k > 0 {
			times.WriteString(", ")
		}
		fmt.Fprintf(&times, "%s–%s", clock(p.start), clock(p.end))
	}
	f.record(code, f.src[i], ActionSplit, "split into %d cues: %s", len(out), times.String())
	return out
}

// markTurns finds dialogue turns: the first word, and each word that
// starts a line with a dialogue dash. The cue is a dialogue when it has
// more than one turn.
func (f *fixer) markTurns(s string, ws []word) {
	if cap(f.turn) < len(ws) {
		f.turn = make([]bool, len(ws))
	}
	f.turn = f.turn[:len(ws)]
	f.dialogue = false
	for k, w := range ws {
		f.turn[k] = k == 0 || (w.brk && dashPrefix(s[w.b0:w.b1]) > 0)
		f.dialogue = f.dialogue || (k > 0 && f.turn[k])
	}
}

// split cuts words [lo, hi) into pieces until each fits the line and
// duration limits, appending them to f.pieces in order. It cuts at the
// best-scoring gap (speaker change, then sentence end, then clause
// boundary, then the best line-break point, each nearer the middle
// scoring higher), shares the time in proportion to characters with
// MinGapMs taken from between the pieces, and never makes a piece shorter
// than MinDurationMs: such a cut is not made, which is the same as merging
// the short piece back into its neighbour.
func (f *fixer) split(s string, ws []word, lo, hi int, start, end int64) {
	if hi-lo < 2 || !f.tooBig(ws, lo, hi, start, end) {
		f.pieces = append(f.pieces, piece{lo, hi, start, end})
		return
	}
	gap := f.tg.MinGapMs
	avail := end - start - gap
	total := int64(f.cum[hi] - f.cum[lo] - 2) // without the space at the cut
	best, bestScore, bestLeft := -1, math.Inf(-1), int64(0)
	for i := lo + 1; i < hi && avail >= 2; i++ {
		cl := int64(f.cum[i] - f.cum[lo] - 1)
		left := avail / 2
		if total > 0 {
			left = (avail*cl + total/2) / total
		}
		right := avail - left
		if left < 1 || right < 1 || left < f.tg.MinDurationMs || right < f.tg.MinDurationMs {
			continue
		}
		class := gapClass(s[ws[i-1].b0:ws[i-1].b1], s[ws[i].b0:ws[i].b1])
		if f.dialogue && f.turn[i] {
			class = gapTurn
		}
		score := float64(classWeight * class)
		if total > 0 {
			score -= balanceWeight * math.Abs(float64(cl)/float64(total)-0.5)
		}
		if class == gapWord {
			score -= breakCost(s, ws[i-1], ws[i]) / 10
		}
		if score > bestScore {
			best, bestScore, bestLeft = i, score, left
		}
	}
	if best < 0 {
		f.pieces = append(f.pieces, piece{lo, hi, start, end})
		return
	}
	f.split(s, ws, lo, best, start, start+bestLeft)
	f.split(s, ws, best, hi, start+bestLeft+gap, end)
}

// tooBig reports whether words [lo, hi) over [start, end] break the
// duration limit or need more lines than allowed, re-wrapped.
func (f *fixer) tooBig(ws []word, lo, hi int, start, end int64) bool {
	if f.tg.MaxDurationMs > 0 && end-start > f.tg.MaxDurationMs {
		return true
	}
	return f.tg.MaxLines > 0 && f.linesNeeded(ws, lo, hi) > f.tg.MaxLines
}

// linesNeeded counts the lines words [lo, hi) take when re-wrapped, each
// dialogue turn starting its own line.
func (f *fixer) linesNeeded(ws []word, lo, hi int) int {
	n, a := 0, lo
	for b := lo + 1; b <= hi; b++ {
		if b < hi && !(f.dialogue && f.turn[b]) {
			continue
		}
		n += minLines(ws[a:b], f.tg.MaxCharsPerLine)
		a = b
	}
	return n
}

// dropDash returns the words of p, without the leading dialogue dash when
// p is exactly one speaker's turn of a dialogue cue: once each speaker has
// a cue of their own the dash means nothing.
func (f *fixer) dropDash(s string, ws []word, p piece) []word {
	pw := ws[p.lo:p.hi]
	if !f.dialogue || !f.turn[p.lo] {
		return pw
	}
	for k := p.lo + 1; k < p.hi; k++ {
		if f.turn[k] {
			return pw
		}
	}
	w := &pw[0]
	d := dashPrefix(s[w.b0:w.b1])
	switch {
	case d == 0:
	case d < w.b1-w.b0:
		w.b0 += d
		w.r0++
		w.chars = chars(s[w.b0:w.b1])
	case len(pw) > 1:
		pw = pw[1:]
	}
	return pw
}

// rewrap breaks pw (words of s; ws index lo onwards) into balanced lines
// of at most MaxCharsPerLine, each dialogue turn on lines of its own.
// Without a width limit, a single turn keeps its number of lines, capped
// at MaxLines.
func (f *fixer) rewrap(s string, pw []word, lo int) {
	authorLines := 1
	for _, w := range pw[1:] {
		if w.brk {
			authorLines++
		}
	}
	width := f.tg.MaxCharsPerLine
	pw[0].brk = false
	a := 0
	for b := 1; b <= len(pw); b++ {
		if b < len(pw) && !(f.dialogue && f.turn[lo+b]) {
			continue
		}
		seg := pw[a:b]
		k := 1
		switch {
		case width > 0:
			k = minLines(seg, width)
		case a == 0 && b == len(pw):
			k = authorLines
			if f.tg.MaxLines > 0 {
				k = min(k, f.tg.MaxLines)
			}
		}
		f.wrap(s, seg, width, k)
		if a > 0 {
			pw[a].brk = true
		}
		a = b
	}
}

// splittable reports whether c has more than one word, so a split could
// share borrowed time among pieces.
func (f *fixer) splittable(c *caption.Cue) bool {
	return strings.IndexFunc(strings.TrimSpace(c.Text), func(r rune) bool { return r == ' ' || r == '\n' }) >= 0
}

// measureLines returns the number of lines of s and the [chars] of its
// longest line.
func measureLines(s string) (lines, longest int) {
	if s == "" {
		return 0, 0
	}
	for {
		lines++
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line = s[:i]
		}
		longest = max(longest, chars(line))
		if i < 0 {
			return lines, longest
		}
		s = s[i+1:]
	}
}
