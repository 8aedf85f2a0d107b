package fix

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/rules"
)

// word is one run of a cue's text between ASCII whitespace, or a part of
// one where writing without spaces between words may break a line
// ([rules.UnspacedBreaks]: "東京タワーは高い。" is eight words, each
// tight but the first). Every text edit in this package is a new
// arrangement of the same words: whitespace hygiene, added breaks,
// re-wrapping and splitting only change what lies between words (nothing,
// a space or a line break, and between tight words nothing or a line
// break), and the one edit to a word itself is dropping a leading dialogue
// dash. That is what makes the text-preservation guarantee of [Apply] hold
// by construction.
type word struct {
	// b0, b1 are the word's bytes in the source text; r0, r1 its code
	// points. Dropping a dialogue dash advances b0 and r0.
	b0, b1 int
	r0, r1 int
	// n0 is the word's first code point in the rendered text.
	n0 int
	// chars is the word's [chars] count.
	chars int
	// brk says a line break, not a space, comes before the word.
	brk bool
	// tight says no space came before the word in the source (nothing, or
	// a line break inside unspaced writing, which reads as nothing): it
	// goes on the word before it, and only a line break may come between
	// them.
	tight bool
	// label says the gap before the word lies inside a sound label or a
	// lyric span (see [markLabels]): no place for a break or a cut.
	label bool
	// speaker says the word opens a speaker label ("Bob:"), where another
	// speaker starts; held says the gap before the word lies inside such
	// a label or right after it, where a break or a cut would part the
	// name from the words it names (see [markSpeakers]).
	speaker, held bool
}

// sep is the width of what comes before the word inside a line: a space,
// or nothing for a tight word. Line lengths count it between words, never
// at a line start.
func (w *word) sep() int {
	if w.tight {
		return 0
	}
	return 1
}

// isSpace reports ASCII whitespace, the only whitespace hygiene touches:
// no-break and other Unicode spaces are typographic choices, kept as they
// are.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// untidy reports whether text has whitespace to clean: space at either
// end, a run of whitespace, a blank line, or whitespace other than a space
// and "\n". It allocates nothing, so clean cues cost one scan.
func untidy(s string) bool {
	if s == "" {
		return false
	}
	if isSpace(s[0]) || isSpace(s[len(s)-1]) {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\r', '\v', '\f':
			return true
		case ' ', '\n':
			if isSpace(s[i+1]) { // s does not end in space, so i+1 is in range
				return true
			}
		}
	}
	return false
}

// blank reports whether s shows nothing: empty or whitespace only.
func blank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// tokenize appends the words of s to ws[:0]. A word gets brk when the
// whitespace before it held a line break, tight when there was no
// whitespace (see [word]) or a line break between two characters of
// unspaced writing.
func tokenize(s string, ws []word) []word {
	ws = ws[:0]
	r, brk := 0, false
	var buf [16]int
	for i := 0; i < len(s); {
		if c := s[i]; isSpace(c) {
			brk = brk || c == '\n' || c == '\r'
			i++
			r++
			continue
		}
		b0, r0 := i, r
		ascii := true
		for i < len(s) && !isSpace(s[i]) {
			_, n := utf8.DecodeRuneInString(s[i:])
			ascii = ascii && n == 1
			i += n
			r++
		}
		brk = brk && len(ws) > 0
		// Lines of unspaced writing broken between two of its characters
		// join without a space (see [rules.Unspaced]).
		tight := brk && unspacedJoin(s[:b0], s[b0:i])
		if !ascii {
			// The parts of an unspaced run are words of their own.
			start := b0
			for _, at := range rules.UnspacedBreaks(s[start:i], buf[:0]) {
				b1 := start + at
				r1 := r0 + utf8.RuneCountInString(s[b0:b1])
				ws = append(ws, word{b0: b0, b1: b1, r0: r0, r1: r1, chars: chars(s[b0:b1]), brk: brk, tight: tight})
				b0, r0, brk, tight = b1, r1, false, true
			}
		}
		ws = append(ws, word{b0: b0, b1: i, r0: r0, r1: r, chars: chars(s[b0:i]), brk: brk, tight: tight})
		brk = false
	}
	return ws
}

// unspacedJoin reports whether the last character of before and the first
// of after, which a line break parts, are both of writing without spaces.
func unspacedJoin(before, after string) bool {
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	l, _ := utf8.DecodeLastRuneInString(before)
	r, _ := utf8.DecodeRuneInString(after)
	return rules.Unspaced(l) && rules.Unspaced(r)
}

// render joins the words of s with a space (nothing before a tight word)
// or, where brk is set, a line break, and records each word's offset in
// the result.
func render(s string, ws []word) string {
	var sb strings.Builder
	n := len(ws)
	for _, w := range ws {
		n += w.b1 - w.b0
	}
	sb.Grow(n)
	off := 0
	for k := range ws {
		w := &ws[k]
		if k > 0 {
			switch {
			case w.brk:
				sb.WriteByte('\n')
				off++
			case !w.tight:
				sb.WriteByte(' ')
				off++
			}
		}
		w.n0 = off
		sb.WriteString(s[w.b0:w.b1])
		off += w.r1 - w.r0
	}
	return sb.String()
}

// lineCount counts the lines of text (zero for "").
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// tidy applies whitespace hygiene to every cue; with empty set it also
// removes cues that show nothing. Clean cues are neither copied nor
// touched.
func (f *fixer) tidy(empty bool) {
	kept := 0
	for i := range f.cues {
		m := &f.m[i]
		if empty && m.blank {
			f.record(codeEmpty, f.srcOf(i), ActionRemove, "removed the cue at %s: it has no visible text", clock(f.cues[i].StartMs))
			f.ownSrc()
			continue
		}
		if m.untidy {
			c := &f.cues[i]
			f.ws = tokenize(c.Text, f.ws)
			text := render(c.Text, f.ws)
			c.Spans = remapSpans(c.Spans, f.ws)
			c.Text = text
			*m = scan(text)
			f.record(codeWhitespace, f.srcOf(i), ActionWhitespace, "trimmed line ends, blank lines and repeated spaces")
		}
		if kept != i {
			f.cues[kept], f.m[kept], f.src[kept] = f.cues[i], f.m[i], f.src[i]
		}
		kept++
	}
	if kept == len(f.cues) {
		return
	}
	clear(f.cues[kept:])
	f.cues, f.m, f.src = f.cues[:kept], f.m[:kept], f.src[:kept]
}
