package fix

import (
	"sort"

	"github.com/captionqa/captionqa/backend/caption"
)

// Speaker labels.
//
// On a preset that strips styling the engine writes each speaker's voice
// into the text as a label, "NAME: ", at the start of the cue and where
// another speaker starts, even mid-line ("Alice: Out where? Bob: The
// pier."), and marks the label's text with a span ([caption.Span.Label]).
// The fixes read a speaker change from that span alone, never from the
// text: "Note: the", "at 10:30" and "Chapter 2:" look like labels, and no
// rule on words (a line start, a sentence end, title case, a few words)
// tells "Bob: I did" from "Note: it rained". The span is the engine's own
// record of where it put the label, it moves with the text through every
// fix as all spans do, and no input can set it (it is not in the JSON
// contract), so a label is recognised exactly where the engine wrote one
// and nowhere else. Labels an author typed into a plain file ("BOB: I
// did") stay ordinary text.
//
// A label is a speaker turn wherever a dialogue dash at a line start is
// one: a split cuts there first ([gapTurn]), a re-wrap starts a line there
// ([bonusTurn], each turn on lines of its own), and a piece that starts
// there keeps its label, which unlike the dash is never dropped. Unlike a
// dash a label may stay inside a line: when giving each speaker lines of
// their own would break MaxLines and the cue cannot be split at the
// speaker change, the turns share lines, as the engine wrote them. No
// line and no piece ever ends on a label, and no break falls inside one
// ("Mary Ann:").

// hasSpeakerLabel reports whether spans mark a speaker label, so that
// [markSpeakers] has work to do.
func hasSpeakerLabel(spans []caption.Span) bool {
	for i := range spans {
		if spans[i].Label {
			return true
		}
	}
	return false
}

// markSpeakers sets speaker on the first word of each speaker label that
// spans mark in s, and held on the label's other words and on the word
// after it. A label span counts only when it covers whole words, the last
// of them ending in ':', as the engine writes it; any other span marks
// nothing.
func markSpeakers(s string, ws []word, spans []caption.Span) {
	for i := range spans {
		sp := &spans[i]
		if !sp.Label {
			continue
		}
		a := sort.Search(len(ws), func(k int) bool { return ws[k].r0 >= sp.Start })
		if a == len(ws) || ws[a].r0 != sp.Start {
			continue
		}
		b := a
		for b < len(ws) && ws[b].r1 < sp.End {
			b++
		}
		if b == len(ws) || ws[b].r1 != sp.End || s[ws[b].b1-1] != ':' {
			continue
		}
		ws[a].speaker = true
		for k := a + 1; k <= b+1 && k < len(ws); k++ {
			ws[k].held = true
		}
	}
}
