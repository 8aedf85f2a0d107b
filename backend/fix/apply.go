package fix

import "github.com/captionqa/captionqa/backend/caption"

// Apply repairs a copy of t under profile p, aiming at the limits in tg
// (a zero target is left alone), and reports every edit and every targeted
// problem it could not repair.
//
//   - [WarnOnly] edits nothing: Track is a deep copy of t.
//   - [LayoutPreserveBreaks] sorts cues by start if needed, clamps invalid
//     time ranges, gives a cue of no duration the time to be read from
//     the free time around it (see [fixer.timeZeroCues]), trims whitespace, removes cues without visible text
//     (tg.EmptyCues), brings placements into the frame
//     (tg.ClampPlacement), trims overlaps (tg.Overlaps), adds breaks
//     inside lines over tg.MaxCharsPerLine (a suggested one within
//     MaxLines, lines a little over it if need be), lengthens cues under
//     tg.MinDurationMs and pulls ends back from gaps under tg.MinGapMs. It
//     keeps every author line break and never merges or splits cues.
//   - [AutoSplitSentences] adds re-wrapping cues whose lines break a limit
//     and splitting cues that still break a line or duration limit, at
//     speaker changes, sentence ends, then clause boundaries, time shared
//     in proportion to characters; each sentence starts a line of its own
//     where MaxLines allows, else the cue is split at a sentence end when
//     the times allow. With tg.BalanceLines it re-breaks two-line cues the
//     line_unbalanced rule flags.
//   - [AutoSplitCPS] adds, before splitting, borrowing time from the gaps
//     around each cue over tg.MaxCPS, enough for every piece of a later
//     split to meet tg.MaxCPS as well.
//   - [Resync] is [LayoutPreserveBreaks] after moving every cue by the
//     offset and ratio estimated against tg.Media's speech
//     ([fixer.resync]); [SnapShotChanges] is [LayoutPreserveBreaks]
//     followed by snapping in- and out-times to tg.Media's shot changes
//     ([fixer.snapShots]). Without the media part they read, both are
//     [LayoutPreserveBreaks].
//
// A limit tg.Suggested marks gives way where meeting it would cost an
// enforced one (see [Targets.Suggested]).
//
// Line breaks follow the rule the line_unbalanced check applies: no line
// ends on an article, preposition, conjunction or auxiliary, nor between
// a common adjective and its noun, while a layout without such a break
// exists (within MaxLines, or by splitting the cue; a cue already over
// MaxLines may take one more line), nor on a speaker's first word after
// their label ("Bob: I / agree."); punctuation is the
// preferred break, then before a conjunction or preposition, lines
// bottom-heavy or equal. Text written without spaces between words
// (Chinese, Japanese) breaks, and splits, where Unicode line breaking
// allows ([rules.UnspacedBreaks], which keeps the kinsoku rules), its
// full stops, question and exclamation marks ending sentences and its
// commas clauses; a line break parting two of its characters reads as no
// space, so a re-wrap joins such lines without one. No line break and no split falls inside a sound
// label ("[door slams]", "(laughs)") or a "♪ lyric ♪" span while another
// place exists.
//
// A speaker changes at a dialogue dash that starts a line of a dialogue
// cue, one whose first line opens with a dash too ([rules.DashDialogue]:
// a dash opening a lone later line is punctuation, kept as text), and at
// a speaker label: text the engine wrote in as "NAME:" and marked with a
// [caption.Span] whose Label is set (see speaker.go for why the fixes
// read labels from that span and not from the text). A label is a split
// point and a preferred line break as a dash is; it may stay inside a
// line when each speaker cannot have lines of their own within MaxLines
// and the cue cannot be split there. No line and no piece ends on a
// label, and a piece that starts at a label keeps it.
//
// An unknown profile behaves as [WarnOnly]; callers validate names with
// [ParseProfile].
//
// Guarantees, whatever the input:
//   - t is never modified, and Track shares no memory with it.
//   - Text is never lost or reordered: all cue texts joined by a space,
//     with whitespace runs collapsed, read the same before and after, the
//     only exceptions being the leading dialogue dash dropped when a
//     dialogue cue is split into one cue per speaker, which the split's
//     change reports (a speaker label is never dropped), and text without
//     spaces between words, which a line break or a split may part where
//     no space was and a re-wrap may join where a line break parted two
//     of its characters, never adding a space. Removed cues held whitespace only.
//   - Outside [WarnOnly], cues are in presentation order and every cue has
//     0 ≤ StartMs ≤ EndMs.
//   - Spans follow their text; a span crossing a split covers both pieces.
//   - The result depends only on the arguments, and time is linear in the
//     size of the track.
//
// Changes are in input cue order (CueIndex indexes t.Cues); Unfixed holds
// findings on the fixed track (CueIndex indexes Track.Cues) with Severity
// left for the caller to set from the rule's level (nil when tg.SkipUnfixed).
func Apply(t *caption.Track, p Profile, tg Targets) Result {
	if t == nil {
		return Result{}
	}
	out := cloneTrack(t)
	level := p.level()
	if level == levelW {
		if tg.SkipUnfixed {
			return Result{Track: out}
		}
		return Result{Track: out, Unfixed: check(out, nil, tg)}
	}
	f := &fixer{tg: tg, level: level, cues: out.Cues}
	f.sortCues()
	f.m = measureAll(f.cues)
	f.repairRanges()
	if p == Resync {
		f.resync()
	}
	f.tidy(tg.EmptyCues)
	if tg.ClampPlacement {
		f.clampPlacements()
	}
	if tg.Overlaps {
		f.resolveOverlaps()
	}
	f.timeZeroCues()
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
	if p == SnapShotChanges {
		f.snapShots()
	}
	out.Cues = f.cues
	r := Result{Track: out, Changes: inCueOrder(f.changes, len(t.Cues)), Sources: f.src}
	if !tg.SkipUnfixed {
		r.Unfixed = check(out, f.m, tg)
	}
	return r
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
	case LayoutPreserveBreaks, Resync, SnapShotChanges:
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
	tg    Targets
	level int
	cues  []caption.Cue
	// src[i] is the input index of cues[i]; nil while that is i.
	src []int
	// m[i] measures cues[i].Text; every edit of a text re-measures it.
	m       []metric
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
	scratch  []word
	widths   []int
	ends     []int
	times    []int64
}

// soft reports whether l is a suggested limit ([Targets.Suggested]),
// which gives way where it would cost an enforced one.
func (f *fixer) soft(l Limit) bool { return f.tg.Suggested&l != 0 }

// firmCPS reports whether MaxCPS is an enforced target.
func (f *fixer) firmCPS() bool { return f.tg.MaxCPS > 0 && !f.soft(LimitMaxCPS) }

// overCPS reports whether n characters shown for d ms read faster than an
// enforced MaxCPS.
func (f *fixer) overCPS(n int, d int64) bool {
	return f.firmCPS() && n > 0 && float64(n)*1000 > f.tg.MaxCPS*float64(d)
}

// srcOf returns the input index of cues[i].
func (f *fixer) srcOf(i int) int {
	if f.src == nil {
		return i
	}
	return f.src[i]
}

// ownSrc makes src explicit before cues are removed, added or moved.
func (f *fixer) ownSrc() {
	if f.src != nil {
		return
	}
	f.src = make([]int, len(f.cues), len(f.cues)+headroom(len(f.cues)))
	for i := range f.src {
		f.src[i] = i
	}
}

// breakWithin breaks ws, words of s over width that need k lines there,
// into at most n lines for a suggested width (see [fixer.breakLongLines]):
// the fewest lines from k that need no bad break, else n lines running
// over the width as far as they need ([fixer.wrapWithin]), which also
// spares a bad break where it can. n of 1 leaves the line alone. It
// returns the lines used.
func (f *fixer) breakWithin(s string, ws []word, width, k, n int) int {
	if n <= 1 {
		return 1
	}
	for kk := k; kk <= min(n, maxBalancedLines); kk++ {
		if !f.wrap(s, ws, width, kk) {
			return kk
		}
	}
	n = min(n, maxBalancedLines, len(ws))
	f.wrapWithin(s, ws, width, n)
	return n
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
		if int(f.m[i].longest) <= width {
			continue
		}
		f.ws = tokenize(c.Text, f.ws)
		ws := f.ws
		if hasLabelChars(c.Text) {
			markLabels(c.Text, ws)
		}
		if hasSpeakerLabel(c.Spans) {
			markSpeakers(c.Text, ws, c.Spans)
		}
		// Lines the cue may still gain: a bad break is avoided with one
		// more line only while the cue stays within MaxLines.
		spare := len(ws) // no line limit
		if f.tg.MaxLines > 0 {
			spare = f.tg.MaxLines - int(f.m[i].lines)
		}
		// A suggested width gives way to MaxLines: a cue within it gains
		// no line past it, its long lines running as far over the width
		// as the lines it may have need. Otherwise the fix would trade a
		// line too long for too many lines.
		within := f.soft(LimitMaxCharsPerLine) && f.tg.MaxLines > 0 && spare >= 0
		a := 0
		for b := 1; b <= len(ws); b++ {
			if b < len(ws) && !ws[b].brk {
				continue
			}
			if seg := ws[a:b]; minLines(seg, width) > 1 {
				k := minLines(seg, width)
				if within {
					spare -= f.breakWithin(c.Text, seg, width, k, spare+1) - 1
					a = b
					continue
				}
				spare -= k - 1
				kmax := k + max(spare, 0)
				if spare < 0 {
					// Over MaxLines already: one more line keeps a
					// bad break out of a cue that cannot meet it.
					kmax = k + 1
				}
				used := f.wrapBest(c.Text, seg, width, k, kmax)
				spare -= used - k
			}
			a = b
		}
		text := render(c.Text, ws)
		if text == c.Text {
			continue
		}
		f.record(codeLineTooLong, f.srcOf(i), ActionAddBreak, "added %s inside over-long lines", nBreaks(lineCount(text)-lineCount(c.Text)))
		c.Spans = remapSpans(c.Spans, ws)
		c.Text = text
		f.m[i] = scan(text)
	}
}
