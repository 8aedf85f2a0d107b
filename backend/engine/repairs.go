package engine

import (
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
)

// Actions of the changes normalisation records for what the reader met.
const (
	actionRepairMarkup = "repair_markup"
	actionRewriteTime  = "rewrite_time"
	actionWriteHeader  = "write_header"
	actionReencode     = "reencode"
	// actionSetLanguage declares the language the request gave.
	actionSetLanguage = "set_language"
	// actionRewriteArrow writes an arrow that would end a cue in a form
	// that does not ([rewritten]).
	actionRewriteArrow = "rewrite_arrow"
	// actionRewriteLookalike writes text a player would take for markup
	// with look-alikes it shows as text ([rewritten]).
	actionRewriteLookalike = "rewrite_lookalike"
	// actionFitFormat is a change the SCC or EBU STL writer makes to fit
	// its format ([rewritten]).
	actionFitFormat = "fit_format"
)

// readerRepairs reports what writing the output repairs of the problems
// the reader met and read past (the structural ones, see [structural]): the
// cues it put in time order, the markup and time stamps it read despite
// their syntax, the missing WebVTT header and a text encoding other than
// UTF-8; and the control characters the engine stripped from the cues
// ([stripControls]), which structural lists with the reader's. Each is a
// change of the source cue the problem is in, or of the whole file.
// sources maps out's cues to src's, as [fix.Result.Sources] does. A problem in a cue the fixes removed is not reported: the removal
// is. Content the reader had to drop (dropped, [droppedContent]) is not
// repaired, so not reported either.
//
// A problem is pinned to a cue only when its line can be in no other
// content: otherwise the change is the file's, since a repair booked on a
// cue it did not concern would send an editor to the wrong cue.
func readerRepairs(structural, dropped []caption.Diagnostic, src, out *caption.Track, sources []int, f string) []fix.Change {
	var changes []fix.Change
	var byLine []int   // src's cue indices by source line, built when needed
	var firstOut []int // the first output cue of each source cue, -1 if none
	var droppedAt []int
	for _, d := range dropped {
		// A line whose bytes were guessed starts no content of its own.
		if d.Code != caption.CodeEncodingNotUTF8 {
			droppedAt = append(droppedAt, d.Line)
		}
	}
	slices.Sort(droppedAt)
	// TTML elements nest and share lines: the element a problem is on may
	// hold several paragraphs, or none that shows, so no line names a cue.
	byLines := src.Source == nil || src.Source.Format != format.TTML
	// cueAt returns the source cue that contains line and its first output
	// cue, or FileLevel when line comes before every cue or cannot be told
	// apart from other content; ok is false when the fixes removed the cue.
	// The cue that contains a line is the last one starting at or before
	// it, unless another cue starts on that line too, or content the
	// reader dropped starts between the cue and the line: the line may be
	// in that content.
	outOf := func(cue int) int {
		if firstOut == nil {
			firstOut = make([]int, len(src.Cues))
			for i := range firstOut {
				firstOut[i] = -1
			}
			for i := len(out.Cues) - 1; i >= 0; i-- {
				s := i
				if sources != nil {
					s = sources[i]
				}
				if s < len(firstOut) {
					firstOut[s] = i
				}
			}
		}
		return firstOut[cue]
	}
	cueAt := func(line int) (cue, outCue int, ok bool) {
		if !byLines {
			return fix.FileLevel, -1, true
		}
		if byLine == nil {
			byLine = make([]int, len(src.Cues))
			for i := range byLine {
				byLine[i] = i
			}
			slices.SortStableFunc(byLine, func(a, b int) int { return src.Cues[a].SourceLine - src.Cues[b].SourceLine })
		}
		past, _ := slices.BinarySearchFunc(byLine, line+1, func(i, l int) int { return src.Cues[i].SourceLine - l })
		if past == 0 {
			return fix.FileLevel, -1, true
		}
		cue = byLine[past-1]
		from := src.Cues[cue].SourceLine
		if past > 1 && src.Cues[byLine[past-2]].SourceLine == from {
			return fix.FileLevel, -1, true
		}
		if i, _ := slices.BinarySearch(droppedAt, from); i < len(droppedAt) && droppedAt[i] <= line {
			return fix.FileLevel, -1, true
		}
		o := outOf(cue)
		return cue, o, o >= 0
	}
	for _, d := range structural {
		if d.Severity == caption.SeverityError {
			continue
		}
		c := fix.Change{Code: d.Code, CueIndex: fix.FileLevel}
		ok := true
		switch d.Code {
		case caption.CodeCuesOutOfOrder:
			c.Action = fix.ActionReorder
			c.CueIndex, _, ok = cueAt(d.Line)
			c.Message = "written in start order: the file had this cue out of order"
		case caption.CodeInvalidMarkup:
			c.Action = actionRepairMarkup
			c.CueIndex, _, ok = cueAt(d.Line)
			c.Message = "markup written well-formed; the file had: " + d.Message
		case caption.CodeInvalidTimestamp:
			c.Action = actionRewriteTime
			var o int
			c.CueIndex, o, ok = cueAt(d.Line)
			// A time the reader could not use leaves the cue without a
			// valid range, which invalid_timestamp still reports: nothing
			// was repaired.
			if ok && o >= 0 && out.Cues[o].EndMs <= out.Cues[o].StartMs {
				ok = false
			}
			c.Message = "times written in " + format.Title(f) + "'s own syntax; the file had: " + d.Message
		case caption.CodeMissingWebVTTHeader:
			c.Action = actionWriteHeader
			c.Message = "the WEBVTT header is written"
			if f != format.VTT {
				c.Message = "the delivery is " + format.Title(f) + ", which has no WEBVTT header to miss"
			}
		case caption.CodeEncodingNotUTF8:
			c.Action = actionReencode
			c.Message = "text written as UTF-8; " + d.Message
		case CodeControlCharacter:
			// The engine found these in a cue, not the reader on a line,
			// so the cue is known whatever the format.
			c.Action = actionStripControl
			c.CueIndex = *d.CueIndex
			ok = outOf(c.CueIndex) >= 0
			c.Message = "control characters left out of the cue's " + strings.TrimPrefix(d.Message, controlsIn)
		default:
			continue
		}
		if ok {
			changes = append(changes, c)
		}
	}
	return changes
}
