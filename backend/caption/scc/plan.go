package scc

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Codes of the changes the writer reports (see [Changes]). They are the
// rule codes of what each change fixes, as the fix profiles report
// theirs, and unsupported_feature for what 608 cannot show.
const (
	// CodeLineTooLong: a line longer than 32 columns was re-wrapped.
	CodeLineTooLong = "line_too_long"
	// CodeTooManyLines: a cue of more than 4 rows was split.
	CodeTooManyLines = "too_many_lines"
	// CodeOverlappingCues: a cue was shown later than its time because
	// the cues it overlaps fill the 4 rows a caption has.
	CodeOverlappingCues = "overlapping_cues"
	// CodeGapTooSmall: a cue was shown late, or ends elsewhere, because
	// the captions before it left too few frames to load it.
	CodeGapTooSmall = "gap_too_small"
)

// plan is what the writer makes of a track: the units it stacks, the
// captions it shows them in, scheduled, and every change it made to fit
// 608.
type plan struct {
	units   []unit
	caps    []capt
	changes []caption.Diagnostic
	scratch pairEncoder
}

// makePlan lays out t's cues in time order, leaving out those [Shows]
// rejects, stacks those that overlap into shared captions and schedules
// the captions.
func makePlan(t *caption.Track) *plan {
	p := &plan{scratch: pairEncoder{pending: -1}}
	order := make([]int, 0, len(t.Cues))
	for i := range t.Cues {
		if Shows(&t.Cues[i]) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(t.Cues[a].StartMs, t.Cues[b].StartMs) })
	p.units = make([]unit, 0, len(order))
	for _, i := range order {
		p.addCue(t, i)
	}
	p.stack()
	p.caps = schedule(p.caps, p.units)
	p.reportTimes(t)
	if len(p.caps) > 0 {
		p.changes = append(p.changes, caption.Diagnostic{Code: caption.CodeUnsupportedFeature, Severity: caption.SeverityInfo,
			Message: "SCC counts time in frames of 29.97 fps video: every time was rounded to the nearest frame (within 17 ms)"})
	}
	slices.SortStableFunc(p.changes, func(a, b caption.Diagnostic) int { return cmp.Compare(cueOf(a), cueOf(b)) })
	return p
}

// cueOf orders changes: the file's first, then by cue.
func cueOf(d caption.Diagnostic) int {
	if d.CueIndex == nil {
		return -1
	}
	return *d.CueIndex
}

// addCue lays out cue i as one unit, or as several of at most 4 rows
// that share its time by their length, and records what that changed.
func (p *plan) addCue(t *caption.Track, i int) {
	c := &t.Cues[i]
	l := layoutCue(c)
	if len(l.rows) == 0 {
		return // only characters that show nothing
	}
	switch {
	case l.rewrapped == 1:
		p.change(t, i, CodeLineTooLong, caption.SeverityWarning, "a line longer than 32 columns was re-wrapped")
	case l.rewrapped > 1:
		p.change(t, i, CodeLineTooLong, caption.SeverityWarning, "%d lines longer than 32 columns were re-wrapped", l.rewrapped)
	}
	if len(l.substituted) > 0 {
		p.change(t, i, caption.CodeUnsupportedFeature, caption.SeverityWarning,
			"characters the 608 character set does not have were replaced: %s", listed(l.substituted))
	}
	if len(l.blanked) > 0 {
		p.change(t, i, caption.CodeUnsupportedFeature, caption.SeverityInfo,
			"characters that show as a space or as nothing were written as a space or left out: %s", listed(l.blanked))
	}
	if l.italicColour {
		p.change(t, i, caption.CodeUnsupportedFeature, caption.SeverityWarning,
			"the colour of italic text was left out, as 608 draws italics white")
	}
	if len(c.Spans) > 0 && p.scratch.movesStyle(l.rows) {
		p.change(t, i, caption.CodeUnsupportedFeature, caption.SeverityWarning,
			"a style change inside a word was moved to the next space, as 608 changes style only at a space")
	}
	var area, align string
	if pl := c.Placement; pl != nil {
		area, align = pl.Area, pl.Align
	}
	parts := (len(l.rows) + maxRows - 1) / maxRows
	start, end := msToFrame(c.StartMs), msToFrame(c.EndMs)
	end = max(end, start+int64(minFrames*parts))
	total := 0
	for _, r := range l.rows {
		total += r.width()
	}
	from, done, at := 0, 0, start
	var pieces []string
	for k := range parts {
		n := len(l.rows) / parts
		if k < len(l.rows)%parts {
			n++
		}
		rows := l.rows[from : from+n]
		from += n
		for _, r := range rows {
			done += r.width()
		}
		next := start + (end-start)*int64(done)/int64(total)
		next = min(max(next, at+minFrames), end-int64(minFrames*(parts-1-k)))
		if k == parts-1 {
			next = end
		}
		p.units = append(p.units, unit{src: i, part: k, parts: parts, rows: rows, area: area, align: align,
			want: at, wantEnd: next, start: at, end: next, firstCap: -1})
		pieces = append(pieces, clock(at)+"–"+clock(next))
		at = next
	}
	if parts > 1 {
		p.change(t, i, CodeTooManyLines, caption.SeverityWarning, "its %d rows do not fit the 4 of a 608 caption; it was split into %d captions: %s",
			len(l.rows), parts, strings.Join(pieces, ", "))
	}
}

// firstRow returns the top row of a caption of n rows: at the bottom
// (ending on row 15) by default, from row 1 at the top, around row 8 in
// the middle.
func firstRow(area string, n int) int {
	switch area {
	case caption.AreaTop:
		return 1
	case caption.AreaMiddle:
		return 8 - n/2
	}
	return screenRows - n + 1
}

// reportTimes reports what the schedule did to each unit: cues shown
// together in one caption (an info), a unit that waited for rows, a start
// it had to delay, and an end more than a frame from the cue's.
func (p *plan) reportTimes(t *caption.Track) {
	for k := range p.caps {
		c := &p.caps[k]
		for _, u := range c.units {
			un := &p.units[u]
			if un.firstCap < 0 {
				un.firstCap, un.from = k, c.eoc
			}
			un.lastCap, un.to = k, c.end
		}
		if k > 0 && p.caps[k-1].showsSame(c) && len(c.units) == 1 && len(p.caps[k-1].units) == 1 {
			// Both cues read back as one: each is told.
			prev := &p.caps[k-1]
			a, b := p.units[prev.units[0]].src, p.units[c.units[0]].src
			for _, src := range []int{a, b} {
				p.change(t, src, caption.CodeUnsupportedFeature, caption.SeverityInfo,
					"cues %d and %d show the same, one straight after the other: on screen they are one caption, from %s to %s",
					a+1, b+1, clock(prev.eoc), clock(c.end))
			}
		}
	}
	p.reportShared(t)
	for u := range p.units {
		un := &p.units[u]
		switch {
		case un.waited != nil:
			p.changeUnit(t, un, CodeOverlappingCues, "shown from %s to %s instead of %s to %s: the 4 rows of a 608 caption were taken by %s",
				clock(un.from), clock(un.to), clock(un.want), clock(un.wantEnd), cueList(un.waited))
			continue
		case un.merged && un.from != un.want:
			p.changeUnit(t, un, CodeGapTooSmall, "shown from %s instead of %s: the caption it would start in lasts too few frames to be loaded in time, so it starts in the one after",
				clock(un.from), clock(un.want))
		case un.from != un.want:
			p.changeUnit(t, un, CodeGapTooSmall,
				"shown from %s instead of %s: loading it takes %d frames (one per byte pair) after the caption before it is displayed",
				clock(un.from), clock(un.want), len(p.caps[un.firstCap].load))
		}
		if un.to-un.wantEnd > 1 || un.wantEnd-un.to > 1 {
			code, why := CodeGapTooSmall, "it keeps its duration after its start moved"
			switch p.caps[un.lastCap].endWhy {
			case endCut:
				why = "when the next caption is displayed"
			case endExtended:
				why = "when the next caption is displayed, which had to be loaded first"
			case endMerged:
				why = "in the caption after its own: the one between lasts too few frames to be loaded in time"
			}
			p.changeUnit(t, un, code, "ends at %s instead of %s, %s", clock(un.to), clock(un.wantEnd), why)
		}
	}
}

// reportShared tells each cue shown in one caption with others which
// they are, and when.
func (p *plan) reportShared(t *caption.Track) {
	type shared struct {
		with     []int
		from, to int64
	}
	by := map[int]*shared{}
	var order []int
	for k := range p.caps {
		c := &p.caps[k]
		cues := cuesOf(p.units, c.units)
		if len(cues) < 2 {
			continue
		}
		for _, src := range cues {
			s := by[src]
			if s == nil {
				s = &shared{from: c.eoc}
				by[src] = s
				order = append(order, src)
			}
			s.to = c.end
			for _, o := range cues {
				if o != src {
					s.with = append(s.with, o)
				}
			}
		}
	}
	for _, src := range order {
		s := by[src]
		slices.Sort(s.with)
		s.with = slices.Compact(s.with)
		p.change(t, src, caption.CodeUnsupportedFeature, caption.SeverityInfo,
			"it overlaps %s: from %s to %s they share one caption, each on rows of its own, as SCC shows one pop-on caption at a time",
			cueList(s.with), clock(s.from), clock(s.to))
	}
}

// cueList names cues (0-based indices, in order) by number: "cue 3",
// "cues 3 and 4", "cues 3, 4 and 6"; past maxListed, "cues 3, 4, 6, 7, 9
// and 12 more".
func cueList(cues []int) string {
	if len(cues) == 1 {
		return "cue " + strconv.Itoa(cues[0]+1)
	}
	var b strings.Builder
	b.WriteString("cues ")
	shown := cues
	if len(cues) > maxListed {
		shown = cues[:maxListed]
	}
	for i, c := range shown {
		switch {
		case i == len(cues)-1:
			b.WriteString(" and ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(c + 1))
	}
	if len(cues) > maxListed {
		fmt.Fprintf(&b, " and %d more", len(cues)-maxListed)
	}
	return b.String()
}

// changeUnit records a change to the timing of unit un: a warning about
// its cue, naming the piece of a split cue.
func (p *plan) changeUnit(t *caption.Track, un *unit, code string, format string, args ...any) {
	if un.parts > 1 {
		format = fmt.Sprintf("(caption %d of %d) ", un.part+1, un.parts) + format
	}
	p.change(t, un.src, code, caption.SeverityWarning, format, args...)
}

// change records a change to cue i.
func (p *plan) change(t *caption.Track, i int, code string, sev caption.Severity, format string, args ...any) {
	idx := i
	p.changes = append(p.changes, caption.Diagnostic{Code: code, Severity: sev, Line: t.Cues[i].SourceLine, CueIndex: &idx,
		Message: fmt.Sprintf("cue %d: ", i+1) + fmt.Sprintf(format, args...)})
}

func clock(frame int64) string { return caption.FormatClock(frameToMs(frame)) }

// listed joins the first items of a list, with "…" when there are more.
func listed(items []string) string {
	if len(items) > maxListed {
		return strings.Join(items[:maxListed], ", ") + ", …"
	}
	return strings.Join(items, ", ")
}
