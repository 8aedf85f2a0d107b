package scc

import (
	"cmp"
	"fmt"
	"slices"
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
	// CodeOverlappingCues: a cue was cut short where the next is shown.
	CodeOverlappingCues = "overlapping_cues"
	// CodeGapTooSmall: a cue was shown late, or ends elsewhere, because
	// the captions before it left too few frames to load it.
	CodeGapTooSmall = "gap_too_small"
)

// plan is what the writer makes of a track: the captions, scheduled, and
// every change it made to fit 608.
type plan struct {
	caps    []capt
	changes []caption.Diagnostic
}

// makePlan lays out and schedules t's cues in time order, leaving out
// those [Shows] rejects.
func makePlan(t *caption.Track) *plan {
	p := &plan{}
	order := make([]int, 0, len(t.Cues))
	for i := range t.Cues {
		if Shows(&t.Cues[i]) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(t.Cues[a].StartMs, t.Cues[b].StartMs) })
	for _, i := range order {
		p.addCue(t, i)
	}
	schedule(p.caps)
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

// addCue lays out cue i as one caption, or as several of at most 4 rows
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
	var moved bool
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
		load, tied, mv := loadCaption(rows, firstRow(area, len(rows)), align)
		moved = moved || mv
		p.caps = append(p.caps, capt{src: i, part: k, parts: parts, rows: rows, first: firstRow(area, len(rows)),
			align: align, load: load, tied: tied, want: at, wantEnd: next})
		pieces = append(pieces, clock(at)+"–"+clock(next))
		at = next
	}
	if moved {
		p.change(t, i, caption.CodeUnsupportedFeature, caption.SeverityWarning,
			"a style change inside a word was moved to the next space, as 608 changes style only at a space")
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

// reportTimes reports each caption the schedule moved: a start it had to
// delay, and an end more than a frame from the cue's.
func (p *plan) reportTimes(t *caption.Track) {
	for k := range p.caps {
		c := &p.caps[k]
		if k > 0 && p.caps[k-1].showsSame(c) {
			// Both cues read back as one: each is told.
			prev := &p.caps[k-1]
			for _, src := range []int{prev.src, c.src} {
				p.change(t, src, caption.CodeUnsupportedFeature, caption.SeverityInfo,
					"cues %d and %d show the same, one straight after the other: on screen they are one caption, from %s to %s",
					prev.src+1, c.src+1, clock(prev.eoc), clock(c.end))
			}
		}
		if c.eoc != c.want {
			p.changePiece(t, c, CodeGapTooSmall,
				"shown from %s instead of %s: loading it takes %d frames (one per byte pair) after the caption before it is displayed",
				clock(c.eoc), clock(c.want), len(c.load))
		}
		if c.end-c.wantEnd > 1 || c.wantEnd-c.end > 1 {
			code, why := CodeGapTooSmall, "it keeps its duration after its start moved"
			switch c.endWhy {
			case endCut:
				code, why = CodeOverlappingCues, "when the next caption is displayed: SCC shows one pop-on caption at a time"
			case endExtended:
				why = "when the next caption is displayed, which had to be loaded first"
			}
			p.changePiece(t, c, code, "ends at %s instead of %s, %s", clock(c.end), clock(c.wantEnd), why)
		}
	}
}

// changePiece records a change to the timing of caption c: a warning
// about its cue, naming the piece of a split cue.
func (p *plan) changePiece(t *caption.Track, c *capt, code string, format string, args ...any) {
	if c.parts > 1 {
		format = fmt.Sprintf("(caption %d of %d) ", c.part+1, c.parts) + format
	}
	p.change(t, c.src, code, caption.SeverityWarning, format, args...)
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
