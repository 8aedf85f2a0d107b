package fix

import (
	"cmp"
	"math"
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
)

const (
	// maxLeadMs bounds how far a start may move earlier: Subtitle Edit's
	// limit, and within Netflix's tolerance for text that appears before
	// the speech. Starts carry the sync, so they move least.
	maxLeadMs = 200
	// minVisibleMs is the least a cue may keep when an overlap is trimmed:
	// text shown for less cannot be read, so such an overlap is left for
	// an editor.
	minVisibleMs = 100
)

// sortCues restores presentation order (by start, then input order) when
// the input broke it; every timing fix relies on it.
func (f *fixer) sortCues() {
	if slices.IsSortedFunc(f.cues, func(a, b caption.Cue) int { return cmp.Compare(a.StartMs, b.StartMs) }) {
		return
	}
	f.ownSrc()
	order := make([]int, len(f.cues))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(f.cues[a].StartMs, f.cues[b].StartMs) })
	cues := make([]caption.Cue, len(f.cues))
	src := make([]int, len(f.src))
	for to, from := range order {
		cues[to], src[to] = f.cues[from], f.src[from]
		if to != from {
			f.record(codeOutOfOrder, src[to], ActionReorder, "moved from position %d to %d to keep cues in start order", from+1, to+1)
		}
	}
	f.cues, f.src = cues, src
}

// repairRanges clamps negative starts to 0 and ends before their start to
// the start; [fixer.timeZeroCues] then gives such cues time.
func (f *fixer) repairRanges() {
	for i := range f.cues {
		c := &f.cues[i]
		if c.StartMs >= 0 && c.EndMs >= c.StartMs {
			continue
		}
		s, e := max(c.StartMs, 0), max(c.EndMs, 0)
		e = max(e, s)
		f.record(codeInvalidTime, f.srcOf(i), ActionRepairRange, "time range %s–%s repaired to %s–%s",
			clockSigned(c.StartMs), clockSigned(c.EndMs), clock(s), clock(e))
		c.StartMs, c.EndMs = s, e
	}
}

// Without targets for them, a cue of no duration is timed for
// zeroCueMinMs (the minimum duration every preset with one suggests,
// Netflix's 5/6 s) and for its text at zeroCueCPS (the reading speed most
// presets allow, Netflix's adult English).
const (
	zeroCueMinMs = 833
	zeroCueCPS   = 20
)

// timeZeroCues gives each cue with text and no duration (end at or before
// its start: invalid_timestamp, shown by no player) the time to be read,
// taken from the free time around it as [fixer.lengthen] does, never
// overlapping the next cue: MinDurationMs (else zeroCueMinMs), or more
// when its text needs more at MaxCPS (else zeroCueCPS), no more than
// MaxDurationMs. What the gaps cannot give stays for the duration and
// reading-speed fixes, or is reported. The author chose no duration for
// such a cue, so it is timed whatever the profile's duration targets.
func (f *fixer) timeZeroCues() {
	var prevEnd int64
	for i := range f.cues {
		c := &f.cues[i]
		if c.EndMs <= c.StartMs && !f.m[i].blank {
			want := f.tg.MinDurationMs
			if want <= 0 {
				want = zeroCueMinMs
			}
			cps := f.tg.MaxCPS
			if cps <= 0 {
				cps = zeroCueCPS
			}
			want = max(want, needMs(int(f.m[i].chars), cps))
			if f.tg.MaxDurationMs > 0 {
				want = min(want, f.tg.MaxDurationMs)
			}
			f.lengthen(i, want, prevEnd, codeInvalidTime, "to give the cue, which had no duration, time to be read", true)
		}
		prevEnd = max(prevEnd, c.EndMs)
	}
}

func clockSigned(ms int64) string {
	if ms < 0 {
		return "-" + clock(-ms)
	}
	return clock(ms)
}

// resolveOverlaps trims each cue that runs into the next one so that it
// ends MinGapMs before the next start, or right at it when that would
// leave the cue under minVisibleMs. Cues are never merged, not even cues
// with identical times: those, and overlaps that would need a cue trimmed
// below minVisibleMs, stay and are reported as unfixed.
func (f *fixer) resolveOverlaps() {
	gap := f.tg.MinGapMs
	for i := 0; i+1 < len(f.cues); i++ {
		c := &f.cues[i]
		next := f.cues[i+1].StartMs
		if c.EndMs <= next {
			continue
		}
		end := next - gap
		if end-c.StartMs < minVisibleMs || f.soft(LimitMinGap) && f.overCPS(int(f.m[i].chars), end-c.StartMs-gap) {
			// A suggested gap takes no time from a cue an enforced
			// reading speed may need it for: one without a gap's worth
			// to spare, which a split's rounding could take.
			end = next
		}
		if end-c.StartMs < minVisibleMs {
			continue
		}
		f.record(codeOverlap, f.srcOf(i), ActionTrimEnd, "end moved from %s to %s so the cue no longer overlaps the next one",
			clock(c.EndMs), clock(end))
		c.EndMs = end
	}
}

// lengthen gives cue i up to want ms of duration: first by moving its end
// into the following gap (keeping MinGapMs before the next cue), then by
// moving its start up to maxLeadMs earlier into the preceding gap (keeping
// MinGapMs after every earlier cue, never before 0). prevEnd is the latest
// end of the cues before i. With firm (want is what an enforced rule
// needs) a suggested MinGapMs gives way when keeping it would leave the
// cue short: the cue may then reach the next cue, and does when it would
// end less than MinGapMs before it. It reports whether the cue reached
// want.
func (f *fixer) lengthen(i int, want, prevEnd int64, code, why string, firm bool) bool {
	c := &f.cues[i]
	if c.EndMs-c.StartMs >= want {
		return true
	}
	gap := f.tg.MinGapMs
	if firm && gap > 0 && f.soft(LimitMinGap) && f.room(i, prevEnd, gap) < want {
		gap = 0
	}
	limit := int64(math.MaxInt64)
	if i+1 < len(f.cues) {
		limit = f.cues[i+1].StartMs - gap
	}
	end := min(c.StartMs+want, limit)
	if gap == 0 && i+1 < len(f.cues) && limit-end < f.tg.MinGapMs {
		end = limit // chained: no gap left under the suggested minimum
	}
	if end > c.EndMs {
		f.record(code, f.srcOf(i), ActionExtendEnd, "end moved from %s to %s %s", clock(c.EndMs), clock(end), why)
		c.EndMs = end
	}
	if short := want - (c.EndMs - c.StartMs); short > 0 {
		earliest := max(c.StartMs-maxLeadMs, 0)
		if i > 0 {
			earliest = max(earliest, prevEnd+gap)
		}
		if start := max(c.StartMs-short, earliest); start < c.StartMs {
			f.record(code, f.srcOf(i), ActionMoveStart, "start moved from %s to %s %s", clock(c.StartMs), clock(start), why)
			c.StartMs = start
		}
	}
	return c.EndMs-c.StartMs >= want
}

// room is the longest cue i can become by [fixer.lengthen] keeping gap.
func (f *fixer) room(i int, prevEnd, gap int64) int64 {
	c := &f.cues[i]
	end := int64(math.MaxInt64 / 2)
	if i+1 < len(f.cues) {
		end = max(c.EndMs, f.cues[i+1].StartMs-gap)
	}
	start := max(c.StartMs-maxLeadMs, 0)
	if i > 0 {
		start = max(start, prevEnd+gap)
	}
	return end - min(start, c.StartMs)
}

// extendShort lengthens cues shorter than MinDurationMs.
func (f *fixer) extendShort() {
	want := f.tg.MinDurationMs
	if f.tg.MaxDurationMs > 0 {
		want = min(want, f.tg.MaxDurationMs)
	}
	var prevEnd int64
	for i := range f.cues {
		c := &f.cues[i]
		if c.EndMs-c.StartMs < want && !f.m[i].blank {
			f.lengthen(i, want, prevEnd, codeTooShort, "to reach the minimum duration", !f.soft(LimitMinDuration))
		}
		prevEnd = max(prevEnd, c.EndMs)
	}
}

// closeGaps pulls a cue's end back when the gap before the next cue is
// positive but under MinGapMs, so the gap becomes exactly MinGapMs. It does
// not chain (close gaps under half a second by extending ends): that edits
// cues no rule flags and moves ends the author chose. A pull that would
// leave the cue under MinDurationMs (or minVisibleMs) is not made, and the
// gap is reported as unfixed.
func (f *fixer) closeGaps() {
	gap := f.tg.MinGapMs
	floor := max(f.tg.MinDurationMs, minVisibleMs)
	for i := 0; i+1 < len(f.cues); i++ {
		c := &f.cues[i]
		next := f.cues[i+1].StartMs
		if g := next - c.EndMs; g <= 0 || g >= gap {
			continue
		}
		end := next - gap
		if end-c.StartMs < floor || f.soft(LimitMinGap) && f.overCPS(int(f.m[i].chars), end-c.StartMs-gap) {
			// A suggested gap takes no time from a cue an enforced
			// reading speed needs it for.
			continue
		}
		f.record(codeGap, f.srcOf(i), ActionTrimEnd, "end moved from %s to %s to leave %d ms before the next cue",
			clock(c.EndMs), clock(end), gap)
		c.EndMs = end
	}
}

// borrowForCPS gives each cue over MaxCPS the time its text needs at
// MaxCPS, taken from the gaps around it as [fixer.lengthen] does.
// Splitting alone cannot help: pieces share the cue's characters and its
// time. When the cue will be split (its text needs more lines than
// MaxLines, or more time than MaxDurationMs), it borrows MinGapMs more for
// each gap between pieces, so that every piece can meet MaxCPS; the
// extension stops at MaxDurationMs only for a cue that cannot be split.
// [fixer.retime] shares the time among the pieces and takes from the gap
// after the cue what this estimate missed. What time cannot be found is
// reported as unfixed.
func (f *fixer) borrowForCPS() {
	var prevEnd int64
	maxDur, gap := f.tg.MaxDurationMs, f.tg.MinGapMs
	for i := range f.cues {
		c := &f.cues[i]
		n := int(f.m[i].chars)
		if d := c.EndMs - c.StartMs; n > 0 && float64(n)*1000 > f.tg.MaxCPS*float64(d) {
			want := needMs(n, f.tg.MaxCPS)
			pieces := int64(1)
			if f.splittable(c) {
				pieces = int64(f.predictPieces(i))
			}
			if maxDur > 0 && want > maxDur {
				switch {
				case f.splittable(c):
					pieces = max(pieces, (want+maxDur-1)/maxDur)
				case !f.soft(LimitMaxDuration) || f.soft(LimitMaxCPS):
					// A suggested maximum duration gives way to an
					// enforced reading speed.
					want = maxDur
				}
			}
			firm := !f.soft(LimitMaxCPS)
			pieceGap := gap
			if firm && f.soft(LimitMinGap) && f.room(i, prevEnd, gap) < want+(pieces-1)*(gap+1) {
				pieceGap = 0
			}
			want += (pieces - 1) * (pieceGap + 1)
			f.lengthen(i, want, prevEnd, codeReadingSpeed, "to bring the reading speed down", firm)
		}
		prevEnd = max(prevEnd, c.EndMs)
	}
}

// predictPieces estimates how many cues [fixer.layout] will split cue i
// into for its lines: MaxLines lines each.
func (f *fixer) predictPieces(i int) int {
	ml := f.tg.MaxLines
	if ml <= 0 {
		return 1
	}
	c := &f.cues[i]
	f.ws = tokenize(c.Text, f.ws)
	if len(f.ws) == 0 {
		return 1
	}
	if hasLabelChars(c.Text) {
		markLabels(c.Text, f.ws)
	}
	f.markTurns(c.Text, f.ws)
	lines := f.linesNeeded(c.Text, f.ws, 0, len(f.ws))
	return max(1, (lines+ml-1)/ml)
}

// needMs is the shortest whole-ms duration at which n characters read at
// no more than cps.
func needMs(n int, cps float64) int64 {
	ms := int64(math.Ceil(float64(n) * 1000 / cps))
	for float64(n)*1000 > cps*float64(ms) {
		ms++
	}
	return ms
}
