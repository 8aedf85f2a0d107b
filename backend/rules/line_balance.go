package rules

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// Shape limits of [LineUnbalanced]: the top line is "much longer" than the
// bottom one when it has more than topRatio times its characters and more
// than topExcess characters over it. The excess keeps short cues ("Okay,
// then." over "Go.") from being reported for a shape no one notices.
const (
	topRatio  = 2
	topExcess = 10
)

// LineUnbalanced reports two-line cues broken at a poor point, a
// suggestion-level check of the line-breaking advice Netflix, BBC and
// DCMP share:
//
//   - the top line ends with an English function word that binds to what
//     follows it: an article (a, an, the), a preposition (of, to, in, on,
//     at, by, for, with, from, into, onto, about, over, under, after,
//     before, between, through, without, within, upon, during, against,
//     among, toward, towards), a conjunction (and, but, or, nor, if,
//     because, although, unless, whether, than) or an auxiliary (is, are,
//     was, were, am, be, been, will, would, shall, should, can, could,
//     may, might, must, has, have, had, do, does, did). A word followed
//     by punctuation ("in," "to.") is a fine break point and passes;
//   - otherwise, the top line is much longer than the bottom: more than
//     2 × its [Characters] and more than 10 characters longer (BBC's
//     "pyramid": bottom-heavy or equal lines read best), unless the lines
//     are two sentences, one a line ([SentenceBreak]): BBC, Netflix and
//     DCMP all put a sentence end first among break points and start a
//     new sentence on a new line, which outranks the shape, so
//     "Lately I only watch Netflix dramas." over "So good!" passes.
//
// Only the break between the two lines is judged; the cue's last word is
// where the cue ends, a matter of splitting cues, not of breaking lines.
// Dialogue cues, whose bottom line starts with "-", "–", "—" or ">>", or
// with another speaker's voice or label ([caption.Span]), are broken by
// speaker and pass. Cues of one line or of three and more pass
// too (see [TooManyLines]).
type LineUnbalanced struct{}

// Code returns "line_unbalanced".
func (LineUnbalanced) Code() string { return CodeLineUnbalanced }

// Unit returns "": the rule has no threshold.
func (LineUnbalanced) Unit() string { return "" }

// Check reports each two-line cue with a poor break.
func (LineUnbalanced) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	// On machine-made captions this rule can report one cue in five: a
	// first pass keeps the failing cues (word: the weak last word; else the
	// line lengths), then the findings are made at their final size.
	type poorHit struct {
		i      int
		word   string
		tc, bc int
	}
	var hits []poorHit
	for i := range t.Cues {
		top, bottom, ok := strings.Cut(t.Cues[i].Text, "\n")
		if !ok || strings.IndexByte(bottom, '\n') >= 0 || isDialogueLine(bottom) || speakerOpens(&t.Cues[i], top, bottom) {
			continue
		}
		if w := lastWord(top); w != "" && weakLineEnd(w) {
			hits = append(hits, poorHit{i: i, word: w})
			continue
		}
		if tc, bc, heavy := topHeavy(top, bottom); heavy {
			hits = append(hits, poorHit{i: i, tc: tc, bc: bc})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var m messages
	m.grow(len(hits), 100)
	for _, h := range hits {
		if h.word != "" {
			m.buf = append(m.buf, "the first line ends with "...)
			m.buf = strconv.AppendQuote(m.buf, h.word)
			m.buf = append(m.buf, ", which belongs with the words after it; break the line before it"...)
		} else {
			m.buf = append(m.buf, "the first line has "...)
			m.buf = strconv.AppendInt(m.buf, int64(h.tc), 10)
			m.buf = append(m.buf, " characters and the second "...)
			m.buf = strconv.AppendInt(m.buf, int64(h.bc), 10)
			m.buf = append(m.buf, "; a bottom-heavy or equal split reads better"...)
		}
		m.end()
		out = append(out, b.finding(CodeLineUnbalanced, t, h.i, ""))
	}
	m.set(out)
	return out
}

// PoorLineBreak reports whether text is a two-line cue text that
// [LineUnbalanced] flags: its first line ends on a function word, or it is
// top-heavy ([TopHeavy]), unless the second line starts a new speaker's
// turn. Fixes use it so they never write a break the rule reports.
func PoorLineBreak(text string) bool {
	top, bottom, ok := strings.Cut(text, "\n")
	if !ok || strings.IndexByte(bottom, '\n') >= 0 || StartsTurn(bottom) {
		return false
	}
	if w := lastWord(top); w != "" && weakLineEnd(w) {
		return true
	}
	_, _, heavy := topHeavy(top, bottom)
	return heavy
}

// topHeavy is [TopHeavy] of the two lines' [Characters], which it returns
// when heavy and the lines are not two sentences ([SentenceBreak]). A line has at most as many characters as bytes and TopHeavy
// grows with its first argument, so when even len(top) is not much longer
// than the bottom line the top line is not counted.
func topHeavy(top, bottom string) (tc, bc int, heavy bool) {
	bc = Characters(bottom)
	if !TopHeavy(len(top), bc) {
		return 0, 0, false
	}
	tc = Characters(top)
	if !TopHeavy(tc, bc) || SentenceBreak(top, bottom) {
		return 0, 0, false
	}
	return tc, bc, true
}

// SentenceBreak reports whether a break between the lines top and bottom
// falls at a sentence end with the bottom line one whole sentence: top
// ends with a full stop, question or exclamation mark or ellipsis (CJK
// ones too, before any closing quotes or brackets), and bottom ends with
// one and starts with no lower-case letter ("approx. / five" goes on).
// [LineUnbalanced] does not call such lines top-heavy, and the fixes
// keep to the same exemption.
func SentenceBreak(top, bottom string) bool {
	top = strings.TrimRight(top, " \t")
	bottom = strings.TrimSpace(bottom)
	if !endsSentence(top) || !endsSentence(bottom) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(bottom)
	return !unicode.IsLower(r)
}

// endsSentence reports whether s ends with sentence-final punctuation,
// before any closing quotes or brackets.
func endsSentence(s string) bool {
	for s != "" {
		r, n := utf8.DecodeLastRuneInString(s)
		switch r {
		case '"', '\'', '”', '’', ')', ']', '»', '」', '』', '）', '］', '】':
			s = s[:len(s)-n]
			continue
		case '.', '?', '!', '…', '。', '？', '！', '．', '｡':
			return true
		}
		return false
	}
	return false
}

// TopHeavy reports whether a first line of top characters is much longer
// than a second of bottom characters, as [LineUnbalanced] measures it.
func TopHeavy(top, bottom int) bool { return top > topRatio*bottom && top-bottom > topExcess }

// speakerOpens reports whether the second line of c, after top, opens
// with another speaker: a speaker label the engine wrote ([caption.Span]
// marked Label), or a span whose voice is not the one the first line ends
// in (WebVTT "<v Bob>" starting the line). Like a dialogue dash, that is
// a break by speaker, whatever the lines' lengths.
func speakerOpens(c *caption.Cue, top, bottom string) bool {
	if len(c.Spans) == 0 {
		return false
	}
	// The code point where the bottom line's text starts.
	at := utf8.RuneCountInString(top) + 1 + utf8.RuneCountInString(bottom) - utf8.RuneCountInString(strings.TrimLeft(bottom, " \t"))
	last := voiceAt(c, utf8.RuneCountInString(top)-1)
	for _, s := range c.Spans {
		if s.Start == at && (s.Label || s.Voice != "" && s.Voice != last) {
			return true
		}
	}
	return false
}

// voiceAt is the speaker of code point at of c's text: the voice of the
// last span covering it that names one, else the cue's.
func voiceAt(c *caption.Cue, at int) string {
	v := c.Voice
	for _, s := range c.Spans {
		if s.Voice != "" && s.Start <= at && at < s.End {
			v = s.Voice
		}
	}
	return v
}

// StartsTurn reports whether line starts a new speaker's turn (a dash or
// ">>"), where a short or long line is the speaker's, not a poor break.
func StartsTurn(line string) bool { return isDialogueLine(line) }

// isDialogueLine reports whether line starts a new speaker's turn.
func isDialogueLine(line string) bool {
	line = strings.TrimLeft(line, " \t")
	return strings.HasPrefix(line, "-") || strings.HasPrefix(line, "–") ||
		strings.HasPrefix(line, "—") || strings.HasPrefix(line, ">>")
}

// lastWord returns the last word of line when it ends in a letter, "" when
// it ends in punctuation, a digit or nothing.
func lastWord(line string) string {
	line = strings.TrimRight(line, " \t")
	j := len(line)
	for j > 0 && isASCIILetter(line[j-1]) {
		j--
	}
	if j == len(line) || j > 0 && line[j-1] != ' ' && line[j-1] != '\t' {
		// Punctuation, a non-ASCII letter or an apostrophe before the
		// letters: not one of the plain English words looked for.
		return ""
	}
	return line[j:]
}

// weakLineEnd reports whether w (any case) is one of [LineUnbalanced]'s
// function words.
func weakLineEnd(w string) bool {
	if len(w) > 8 {
		return false
	}
	var b [8]byte
	for k := 0; k < len(w); k++ {
		b[k] = w[k] | 0x20
	}
	switch string(b[:len(w)]) {
	case "a", "an", "the",
		"of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "about", "over", "under",
		"after", "before", "between", "through", "without", "within", "upon", "during", "against", "among",
		"toward", "towards",
		"and", "but", "or", "nor", "if", "because", "although", "unless", "whether", "than",
		"is", "are", "was", "were", "am", "be", "been", "will", "would", "shall", "should", "can", "could",
		"may", "might", "must", "has", "have", "had", "do", "does", "did":
		return true
	}
	return false
}
