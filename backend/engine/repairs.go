package engine

import (
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
)

// Actions of the changes normalisation records for what the reader met.
const (
	actionReorder      = "reorder"
	actionRepairMarkup = "repair_markup"
	actionRewriteTime  = "rewrite_time"
	actionWriteHeader  = "write_header"
	actionReencode     = "reencode"
	// actionSetLanguage declares the language the request gave.
	actionSetLanguage = "set_language"
)

// readerRepairs reports what writing the output repairs of the problems
// the reader met and read past (structural, rules-reference 7.2): the
// cues it put in time order, the markup and time stamps it read despite
// their syntax, the missing WebVTT header and a text encoding other than
// UTF-8. Each is a change of the output cue it concerns (the last cue of
// out starting at or before the problem's line), or of the whole file.
// Content the reader had to drop is not repaired, so not reported here.
func readerRepairs(structural []caption.Diagnostic, out *caption.Track, f string) []fix.Change {
	var changes []fix.Change
	var byLine []int // out's cue indices by source line, built when needed
	cueAt := func(line int) int {
		bySourceLine := func(i, l int) int { return out.Cues[i].SourceLine - l }
		if byLine == nil {
			byLine = make([]int, len(out.Cues))
			for i := range byLine {
				byLine[i] = i
			}
			// Stable: among cues of one line (a split cue's pieces), the
			// first comes first.
			slices.SortStableFunc(byLine, func(a, b int) int { return out.Cues[a].SourceLine - out.Cues[b].SourceLine })
		}
		past, _ := slices.BinarySearchFunc(byLine, line+1, bySourceLine)
		if past == 0 {
			return fix.FileLevel
		}
		first, _ := slices.BinarySearchFunc(byLine, out.Cues[byLine[past-1]].SourceLine, bySourceLine)
		return byLine[first]
	}
	for _, d := range structural {
		if d.Severity == caption.SeverityError {
			continue
		}
		c := fix.Change{Code: d.Code, CueIndex: fix.FileLevel}
		switch d.Code {
		case caption.CodeCuesOutOfOrder:
			c.CueIndex, c.Action = cueAt(d.Line), actionReorder
			c.Message = "written in start order: the file had this cue out of order"
		case caption.CodeInvalidMarkup:
			c.CueIndex, c.Action = cueAt(d.Line), actionRepairMarkup
			c.Message = "markup written well-formed; the file had: " + d.Message
		case caption.CodeInvalidTimestamp:
			c.CueIndex, c.Action = cueAt(d.Line), actionRewriteTime
			c.Message = "times written in " + formatTitle(f) + "'s own syntax; the file had: " + d.Message
		case caption.CodeMissingWebVTTHeader:
			c.Action = actionWriteHeader
			c.Message = "the WEBVTT header is written"
			if f != format.VTT {
				c.Message = "the delivery is " + formatTitle(f) + ", which has no WEBVTT header to miss"
			}
		case caption.CodeEncodingNotUTF8:
			c.Action = actionReencode
			c.Message = "text written as UTF-8; the file was read as Windows-1252"
		default:
			continue
		}
		changes = append(changes, c)
	}
	return changes
}
