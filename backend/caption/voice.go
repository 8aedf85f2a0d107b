package caption

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// VoiceLabel is a speaker label that a delivery without voices (plain
// text) shows in a cue: Voice followed by ": ", put before the byte At of
// the cue's Text. Space says a space goes before the label too: the
// speaker starts right after another's punctuation with no white space
// between ("Wait!What?"), and the label needs a space to stand apart
// from the word before it ("Wait! Bob: What?").
type VoiceLabel struct {
	At    int
	Voice string
	Space bool
}

// HasVoice reports whether the cue or one of its spans names a speaker.
func (c *Cue) HasVoice() bool {
	if c.Voice != "" {
		return true
	}
	for i := range c.Spans {
		if c.Spans[i].Voice != "" {
			return true
		}
	}
	return false
}

// VoiceLabels appends to dst, in text order, the speaker labels that tell
// a viewer of plain text who speaks in the cue, and returns the result.
// The engine writes them into the text of a delivery that strips styling,
// and EN 301 549 7.1.3 grading counts them as kept text, so both follow
// these rules:
//
//   - A cue without visible text gets none: a label alone would show a cue
//     that says nothing but a name.
//   - The cue's Voice labels its first word.
//   - A span's Voice labels the word the span's first visible character is
//     in, when it is another speaker than the one before it (the cue's
//     voice, or the last span voice), so a speaker who goes on over
//     several spans, or over unvoiced text, is named once. A span holding
//     only white space starts no one speaking.
//   - A speaker who starts mid-line is labelled there, inside the line
//     ("Where were you? Bob: Out."): the name is all that tells the viewer
//     the speaker changed, and starting a new line instead would be a
//     layout edit, which belongs to the fix profile (and may break a line
//     limit the profile no longer checks).
//   - Where the text already opens with the label, in any case ("MARTA:"
//     for Marta), none is added; the speaker still changes.
//   - A speaker who starts right after punctuation that ends a sentence or
//     a clause, with no white space between ("<v Ann>Wait!</v><v
//     Bob>What?</v>"), is labelled where they start, with a space before
//     the label: the punctuation ends the other speaker's word, so it is a
//     real change, and labelling the whole run would give Bob Ann's word.
//   - Otherwise one word takes at most one label, the first: two voices
//     starting in one word ("Wa" and "it", "Well-" and "known") are a slip
//     of the source, and a second name there would read as text.
func (c *Cue) VoiceLabels(dst []VoiceLabel) []VoiceLabel {
	text := c.Text
	first := strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) })
	if first < 0 || !c.HasVoice() {
		return dst
	}
	speaker, last := c.Voice, -1 // last: the byte of the last word labelled or found labelled
	if speaker != "" {
		last = first
		if !opensWithLabel(text[first:], speaker) {
			dst = append(dst, VoiceLabel{At: first, Voice: speaker})
		}
	}
	spans := c.Spans
	byStart := func(a, b Span) int { return cmp.Compare(a.Start, b.Start) }
	if !slices.IsSortedFunc(spans, byStart) {
		spans = slices.Clone(spans)
		slices.SortStableFunc(spans, byStart)
	}
	r, b := 0, 0 // the code point and byte offsets of a span's start
	for _, s := range spans {
		for r < s.Start && b < len(text) {
			_, size := utf8.DecodeRuneInString(text[b:])
			r, b = r+1, b+size
		}
		if s.Voice == "" || s.Voice == speaker {
			continue
		}
		at, ar := b, r
		for ar < s.End && at < len(text) {
			ch, size := utf8.DecodeRuneInString(text[at:])
			if !unicode.IsSpace(ch) {
				break
			}
			ar, at = ar+1, at+size
		}
		if ar >= s.End || at >= len(text) {
			continue
		}
		space := endsClause(text[:at])
		for !space && at > 0 {
			ch, size := utf8.DecodeLastRuneInString(text[:at])
			if unicode.IsSpace(ch) {
				break
			}
			at -= size
		}
		if at <= last {
			continue
		}
		speaker, last = s.Voice, at
		if !opensWithLabel(text[at:], s.Voice) {
			dst = append(dst, VoiceLabel{At: at, Voice: s.Voice, Space: space})
		}
	}
	return dst
}

// endsClause reports whether s ends in punctuation that ends a sentence or
// a clause, maybe followed by closing quotes or brackets ("Go.\"", "no),").
// A hyphen, an apostrophe or an opening quote ends no word.
func endsClause(s string) bool {
	for s != "" {
		r, size := utf8.DecodeLastRuneInString(s)
		switch {
		case strings.ContainsRune(".!?,;:…。！？，、；：", r):
			return true
		case r == '"' || unicode.In(r, unicode.Pe, unicode.Pf) && r != '’':
			s = s[:len(s)-size]
		default:
			return false
		}
	}
	return false
}

// opensWithLabel reports whether s opens with the label "voice:", in any
// case.
func opensWithLabel(s, voice string) bool {
	n := len(voice)
	return len(s) > n && s[n] == ':' && strings.EqualFold(s[:n], voice)
}
