package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/rules"
)

// styled reports whether a span styles text: a speaker label's span
// ([caption.Span.Label]) only marks where the engine wrote the label, so
// dropping it removes no styling.
func styled(spans []caption.Span) bool {
	for i := range spans {
		if !spans[i].Label {
			return true
		}
	}
	return false
}

// labelSpans returns the speaker labels' spans of spans, nil when there
// are none. They style nothing, so a plain-text delivery keeps them: its
// rule check then still tells a line opened by a label for a speaker's
// turn ([rules.LineUnbalanced]), as the fixes did. Writers write no
// markup for them.
func labelSpans(spans []caption.Span) []caption.Span {
	var out []caption.Span
	for _, s := range spans {
		if s.Label {
			out = append(out, s)
		}
	}
	return out
}

// normalise applies what the preset's platform demands of every file,
// whatever the fix profile: for platforms that show plain text, styling
// and placement are removed (strip_styling). Each stripped cue is
// reported as a change. Renumbering, sorting, headers and encoding are
// the writers' job.
//
// The speakers' labels are already in the text ([labelSpeakers], before
// the fixes); notes[s] says which labels source cue s got, and the change
// of the first output cue made from s (sources maps output cues to source
// cues as [fix.Result.Sources] does) names them: the pieces of a split
// cue are next to each other, and only the first opens with the label.
// notes is nil when no cue got one.
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
func normalise(t *caption.Track, p *preset.Preset, owned bool, notes []string, sources []int) (*caption.Track, []fix.Change) {
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
	srcOf := func(i int) int {
		if sources == nil {
			return i
		}
		return sources[i]
	}
	for i := range t.Cues {
		c := &t.Cues[i]
		var note string
		if notes != nil {
			if s := srcOf(i); i == 0 || srcOf(i-1) != s {
				note = notes[s]
			}
		}
		if c.Spans == nil && c.Placement == nil && c.Voice == "" && c.Style == "" && c.Ext == nil && note == "" {
			continue // nothing to strip, nothing to report
		}
		ruby := format.HasRuby(c)
		if !owned {
			cp := *t
			cp.Cues = slices.Clone(t.Cues)
			t, owned = &cp, true
			c = &t.Cues[i]
		}
		var removed [4]string
		n := 0
		if styled(c.Spans) {
			removed[n] = "styling"
			n++
		}
		if !c.Placement.IsZero() {
			removed[n] = "position"
			n++
		}
		if ruby {
			removed[n] = format.FeatureRuby
			n++
		}
		if note != "" {
			removed[n] = note
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
		c.Spans, c.Voice, c.Style, c.Placement, c.Ext = labelSpans(c.Spans), "", "", nil, nil
	}
	return t, changes
}

// unwritten reports each cue of t that carries a feature the writer of
// format f leaves out ([format.UnwrittenCue]), such as a colour in
// WebVTT or a region's roll-up in TTML: the delivery loses it, so the
// report says so. Like every
// change normalise returns, it names a cue of t; the caller maps it to
// the uploaded file's.
func unwritten(t *caption.Track, f string) []fix.Change {
	var changes []fix.Change
	format.EachUnwritten(f, t, func(i int, lost []string) {
		changes = append(changes, fix.Change{
			Code: rules.CodeStripStyling, CueIndex: i, Action: "strip",
			Message: "left out, as " + format.Title(f) + " cannot carry it: " + strings.Join(lost, ", "),
		})
	})
	return changes
}

// undelivered reports each cue of t that a file of format f does not
// deliver ([format.Delivers]): TTML shows no cue that ends where it
// starts or has no text, so its writer leaves such a cue out. Counting it
// as an output cue would claim one more cue than a player gets, and
// leaving the file to drop it unsaid would lose it silently. The rules
// still judge the cue (the output's empty_cue or invalid_timestamp), so
// a delivery without it is no readier than the file was. Like every
// change normalise returns, each names a cue of t.
func undelivered(t *caption.Track, f string) []fix.Change {
	var changes []fix.Change
	for i := range t.Cues {
		c := &t.Cues[i]
		if format.Delivers(f, c) {
			continue
		}
		ch := fix.Change{Code: rules.CodeEmptyCue, CueIndex: i, Action: fix.ActionRemove,
			Message: "not delivered, as " + format.Title(f) + " shows no cue without visible text"}
		if c.EndMs <= c.StartMs {
			ch.Code = rules.CodeInvalidTimestamp
			ch.Message = fmt.Sprintf("not delivered, as %s shows no cue that does not end after it starts (%s to %s)",
				format.Title(f), caption.FormatClock(c.StartMs), caption.FormatClock(c.EndMs))
		}
		changes = append(changes, ch)
	}
	return changes
}

// rewritten reports the cues of t whose text the writer of format f
// writes changed (what [format.RewritesText] says of SRT), each with what
// was done: an SRT
// line that would read as a timing line gets "--›" for its "-->", since
// the reader would otherwise start a cue there; SRT text a player would
// take for markup (a tag, an override block, an ASS escape) is written
// with look-alikes, which it shows as text. The viewer reads the same, but
// the text is not the file's, so the report says so. Like every change
// normalise returns, each names a cue of t. The SCC and EBU STL writers
// fit cues to their format (characters they lack replaced, lines
// re-wrapped, colours moved, times on frames): each change
// [format.Changes] lists is one with the action fit_format, of the cue it
// names or of the file.
func rewritten(t *caption.Track, f string) []fix.Change {
	switch f {
	case format.SCC, format.STL:
		var changes []fix.Change
		for _, d := range format.Changes(f, t) {
			i := fix.FileLevel
			if d.CueIndex != nil {
				i = *d.CueIndex
			}
			changes = append(changes, fix.Change{Code: d.Code, CueIndex: i, Action: actionFitFormat, Message: d.Message})
		}
		return changes
	case format.SRT:
	default:
		return nil
	}
	var changes []fix.Change
	for i := range t.Cues {
		c := &t.Cues[i]
		if srt.RewritesMarkup(c.Text) {
			changes = append(changes, fix.Change{Code: rules.CodeInvalidMarkup, CueIndex: i, Action: actionRewriteLookalike,
				Message: `text SRT players would take for markup (a tag "<…>", an override block "{…}" or an ASS escape) is written with look-alikes, "‹…›", "(…)" and "∖", which they show as text`})
		}
		if srt.RewritesArrow(c.Text) {
			changes = append(changes, fix.Change{Code: rules.CodeInvalidMarkup, CueIndex: i, Action: actionRewriteArrow,
				Message: `a line of the cue would read as a timing line in SRT, so its "-->" is written "--›"`})
		}
	}
	return changes
}
