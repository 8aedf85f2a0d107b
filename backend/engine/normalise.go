package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/rules"
)

// normalise applies what the preset's platform demands of every file,
// whatever the fix profile: for platforms that show plain text, styling
// and placement are removed (strip_styling), and a speaker carried only as
// a voice becomes a "NAME: " label so the viewer still learns who speaks
// (EN 301 549 7.1.3). Each stripped cue is reported as a change.
// Renumbering, sorting, headers and encoding are the writers' job.
//
// When owned is true t is the caller's own copy (the track [fix.Apply]
// returns) and is edited in place, so a 40,000-cue track is not copied
// again. Otherwise t is left alone: the result shares it while nothing
// needs stripping, and its cues are copied at the first cue that does
// (cue fields are replaced, never edited through, so the copy may share
// the rest).
//
// A preset that keeps styling changes nothing, but the output format may
// have no syntax for some of it: each cue whose spans carry such a
// feature is reported (see [unwritten]).
func normalise(t *caption.Track, p *preset.Preset, owned bool) (*caption.Track, []fix.Change) {
	if !p.StripStyling {
		return t, unwritten(t, p.Output)
	}
	if t.Styles != nil || t.Regions != nil || t.Ext != nil {
		if !owned {
			c := *t
			t = &c
		}
		t.Styles, t.Regions, t.Ext = nil, nil, nil
	}
	var changes []fix.Change
	for i := range t.Cues {
		c := &t.Cues[i]
		if c.Spans == nil && c.Placement == nil && c.Voice == "" && c.Style == "" && c.Ext == nil {
			continue // nothing to strip, nothing to report
		}
		if !owned {
			cp := *t
			cp.Cues = slices.Clone(t.Cues)
			t, owned = &cp, true
			c = &t.Cues[i]
		}
		var removed [3]string
		n := 0
		if len(c.Spans) > 0 {
			removed[n] = "styling"
			n++
		}
		if !c.Placement.IsZero() {
			removed[n] = "position"
			n++
		}
		if c.Voice != "" && !strings.HasPrefix(c.Text, c.Voice+":") {
			c.Text = c.Voice + ": " + c.Text
			removed[n] = fmt.Sprintf("voice (now the label %q)", c.Voice+":")
			n++
		}
		if n > 0 {
			if changes == nil {
				// Styled cues come in numbers: room for one in eight.
				changes = make([]fix.Change, 0, max(len(t.Cues)/8, 4))
			}
			changes = append(changes, fix.Change{
				Code: rules.CodeStripStyling, CueIndex: i, Action: "strip",
				Message: "removed for this platform: " + strings.Join(removed[:n], ", "),
			})
		}
		c.Spans, c.Voice, c.Style, c.Placement, c.Ext = nil, "", "", nil, nil
	}
	return t, changes
}

// unwritten reports each cue of t whose spans carry a feature the writer
// of format f leaves out ([format.Unwritten]), such as a colour in
// WebVTT: the delivery loses it, so the report says so.
func unwritten(t *caption.Track, f string) []fix.Change {
	var changes []fix.Change
	var lost []string
	for i := range t.Cues {
		lost = lost[:0]
		for k := range t.Cues[i].Spans {
			lost = format.Unwritten(f, &t.Cues[i].Spans[k], lost)
		}
		if len(lost) == 0 {
			continue
		}
		slices.Sort(lost)
		changes = append(changes, fix.Change{
			Code: rules.CodeStripStyling, CueIndex: i, Action: "strip",
			Message: "left out, as " + formatTitle(f) + " cannot carry it: " + strings.Join(slices.Compact(lost), ", "),
		})
	}
	return changes
}

// formatTitle is a format's name as editors write it.
func formatTitle(f string) string {
	switch f {
	case format.SRT:
		return "SRT"
	case format.VTT:
		return "WebVTT"
	case format.TTML:
		return "TTML"
	case format.JSON:
		return "the JSON model"
	}
	return f
}

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
