package fix

import "github.com/captionqa/captionqa/backend/caption"

// Apply repairs a copy of t under profile p, aiming at the limits in tg
// (a zero target is left alone), and reports every edit and every targeted
// problem it could not repair.
//
//   - [WarnOnly] edits nothing: Track is a deep copy of t.
//   - [LayoutPreserveBreaks] sorts cues by start if needed, clamps invalid
//     time ranges, trims whitespace, removes cues without visible text
//     (tg.EmptyCues), trims overlaps (tg.Overlaps), adds breaks inside
//     lines over tg.MaxCharsPerLine, lengthens cues under
//     tg.MinDurationMs and pulls ends back from gaps under tg.MinGapMs. It
//     keeps every author line break and never merges or splits cues.
//   - [AutoSplitSentences] adds re-wrapping cues whose lines break a limit
//     and splitting cues that still break a line or duration limit, at
//     speaker changes, sentence ends, then clause boundaries, time shared
//     in proportion to characters.
//   - [AutoSplitCPS] adds, before splitting, borrowing time from the gaps
//     around each cue over tg.MaxCPS.
//
// An unknown profile behaves as [WarnOnly]; callers validate names with
// [ParseProfile].
//
// Guarantees, whatever the input:
//   - t is never modified, and Track shares no memory with it.
//   - Text is never lost or reordered: all cue texts joined by a space,
//     with whitespace runs collapsed, read the same before and after, the
//     only exception being the leading dialogue dash dropped when a
//     two-speaker cue is split into one cue per speaker. Removed cues held
//     whitespace only.
//   - Outside [WarnOnly], cues are in presentation order and every cue has
//     0 ≤ StartMs ≤ EndMs.
//   - Spans follow their text; a span crossing a split covers both pieces.
//   - The result depends only on the arguments, and time is linear in the
//     size of the track.
//
// Changes are in input cue order (CueIndex indexes t.Cues); Unfixed holds
// findings on the fixed track (CueIndex indexes Track.Cues) with Severity
// left for the caller to set from the rule's level.
func Apply(t *caption.Track, p Profile, tg Targets) Result {
	if t == nil {
		return Result{}
	}
	out := cloneTrack(t)
	f := &fixer{tg: tg, cues: out.Cues, src: make([]int, len(out.Cues))}
	for i := range f.src {
		f.src[i] = i
	}
	level := p.level()
	if level >= levelL {
		f.sortCues()
		f.repairRanges()
		f.tidy(tg.EmptyCues)
		if tg.Overlaps {
			f.resolveOverlaps()
		}
		if level >= levelC && tg.MaxCPS > 0 {
			f.borrowForCPS()
		}
		if level == levelL {
			f.breakLongLines()
		} else {
			f.layout()
		}
		if tg.MinDurationMs > 0 {
			f.extendShort()
		}
		if tg.MinGapMs > 0 {
			f.closeGaps()
		}
	}
	out.Cues = f.cues
	return Result{Track: out, Changes: inCueOrder(f.changes, len(t.Cues)), Unfixed: check(out, tg)}
}

// Profile levels: each profile does everything the one before it does.
const (
	levelW = iota
	levelL
	levelS
	levelC
)

func (p Profile) level() int {
	switch p {
	case LayoutPreserveBreaks:
		return levelL
	case AutoSplitSentences:
		return levelS
	case AutoSplitCPS:
		return levelC
	}
	return levelW
}

// fixer holds one Apply call's working state and scratch buffers reused
// from cue to cue.
type fixer struct {
	tg      Targets
	cues    []caption.Cue
	src     []int // src[i] is the input index of cues[i]
	changes []Change

	ws       []word
	turn     []bool
	dialogue bool
	pieces   []piece
	cum      []int
	pre      []int
	cost     []float64
	gapCost  []float64
	from     []int
}

// breakLongLines adds breaks inside lines over MaxCharsPerLine and keeps
// every other break (layout-preserve-breaks).
func (f *fixer) breakLongLines() {
	width := f.tg.MaxCharsPerLine
	if width <= 0 {
		return
	}
	for i := range f.cues {
		c := &f.cues[i]
		if _, longest := measureLines(c.Text); longest <= width {
			continue
		}
		f.ws = tokenize(c.Text, f.ws)
		ws := f.ws
		a := 0
		for b := 1; b <= len(ws); b++ {
			if b < len(ws) && !ws[b].brk {
				continue
			}
			if seg := ws[a:b]; minLines(seg, width) > 1 {
				f.wrap(c.Text, seg, width, minLines(seg, width))
			}
			a = b
		}
		text := render(c.Text, ws)
		if text == c.Text {
			continue
		}
		f.record(codeLineTooLong, f.src[i], ActionAddBreak, "added %d line break(s) inside over-long lines", lineCount(text)-lineCount(c.Text))
		c.Spans = remapSpans(c.Spans, ws)
		c.Text = text
	}
}
