package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/preset"
)

// labelSpeakers writes the speakers of t into its text for a preset that
// strips styling, where no voice survives: each label of
// [caption.Cue.VoiceLabels] becomes "NAME: " text (" NAME: " where the
// speaker's word touches the one before), so the viewer still
// learns who speaks (EN 301 549 7.1.3). It runs before the fix profile,
// so the layout the fixes make counts the labels, and a cue the fixes
// split opens only its first piece with its label.
//
// The result has no voices: pieces of a split cue would each carry their
// cue's voice into normalisation, and so each its label. Spans move with
// their text, and those that only carried a voice go. notes[i] says which
// labels cue i got, for the change normalisation reports ("" for none).
//
// t is never modified. A track without voices, such as every SRT, is
// returned itself with nil notes, so it costs one look at each cue;
// otherwise the cues are copied (their fields are replaced, never edited
// through, so the copy shares the rest). A preset that keeps styling
// keeps the voices: t is returned as it is.
func labelSpeakers(t *caption.Track, p *preset.Preset) (*caption.Track, []string) {
	if !p.StripStyling {
		return t, nil
	}
	first := -1
	for i := range t.Cues {
		if t.Cues[i].HasVoice() {
			first = i
			break
		}
	}
	if first < 0 {
		return t, nil
	}
	out := *t
	out.Cues = slices.Clone(t.Cues)
	notes := make([]string, len(t.Cues))
	var labels []caption.VoiceLabel
	for i := first; i < len(out.Cues); i++ {
		c := &out.Cues[i]
		if !c.HasVoice() {
			continue
		}
		labels = c.VoiceLabels(labels[:0])
		c.Text, c.Spans = withLabels(c.Text, c.Spans, labels)
		c.Voice = ""
		notes[i] = labelNote(labels)
	}
	return &out, notes
}

// withLabels returns text with each label written in, and a new slice of
// spans (spans may be shared with the source track) without voices, moved
// to follow their text: a label belongs to no span that starts where it
// goes. A span left with no styling is dropped; nil when none is left.
// Each label gets a span of its own, marked [caption.Span.Label], first.
func withLabels(text string, spans []caption.Span, labels []caption.VoiceLabel) (string, []caption.Span) {
	type insert struct{ at, n int } // code point offset and length of a label
	var ins []insert
	var out []caption.Span
	if len(labels) > 0 {
		var b strings.Builder
		b.Grow(len(text) + len(labels)*16)
		from, runes, added := 0, 0, 0
		for _, l := range labels {
			runes += utf8.RuneCountInString(text[from:l.At])
			b.WriteString(text[from:l.At])
			lead := 0 // a space parting the label from the word before
			if l.Space {
				b.WriteByte(' ')
				lead = 1
			}
			b.WriteString(l.Voice)
			b.WriteString(": ")
			n := lead + utf8.RuneCountInString(l.Voice) + 2
			ins = append(ins, insert{runes, n})
			// The label's own span, "NAME:" without the spaces, tells the
			// fix profile where the speaker changes.
			out = append(out, caption.Span{Start: runes + added + lead, End: runes + added + n - 1, Label: true})
			added += n
			from = l.At
		}
		b.WriteString(text[from:])
		text = b.String()
	}
	for _, s := range spans {
		s.Voice = ""
		if s == (caption.Span{Start: s.Start, End: s.End}) {
			continue
		}
		// Offsets of the source text; the labels before them push them on.
		start, end := s.Start, s.End
		for _, in := range ins {
			if in.at <= start {
				s.Start += in.n
			}
			if in.at < end {
				s.End += in.n
			}
		}
		out = append(out, s)
	}
	return text, out
}

// labelNote says which labels a cue got, as part of the change
// normalisation reports for it: "voice (now the label "Marta:")", or with
// several speakers each label once.
func labelNote(labels []caption.VoiceLabel) string {
	var names []string
	for _, l := range labels {
		if q := fmt.Sprintf("%q", l.Voice+":"); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "voice (now the label " + names[0] + ")"
	}
	return "voices (now the labels " + strings.Join(names, ", ") + ")"
}
