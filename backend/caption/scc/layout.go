package scc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// row is one row of a caption as the writer lays it out: its glyphs, and
// the style of each.
type row struct {
	glyphs []glyph
	styles []style
}

func (r *row) width() int { return len(r.glyphs) }

// text returns what the row reads as.
func (r *row) text() string {
	var b strings.Builder
	for _, g := range r.glyphs {
		b.WriteRune(g.r)
	}
	return b.String()
}

// cueLayout is a cue turned into 608 rows, and what that changed.
type cueLayout struct {
	rows []row
	// substituted lists the characters 608 lacks and what was written
	// for them ("ł" → "l"), each once, in order; blanked lists the spaces
	// of other widths and invisible characters, written as a space or
	// left out ("U+00A0").
	substituted, blanked []string
	// italicColour is set when italic text lost its colour, rewrapped
	// counts the lines longer than 32 columns.
	italicColour bool
	rewrapped    int
}

// maxListed is how many substitutions a report quotes.
const maxListed = 5

// layoutCue maps c's text to 608 glyphs with their styles, trims and
// drops blank lines, and re-wraps lines longer than 32 columns at spaces
// (a word longer than a row is cut).
func layoutCue(c *caption.Cue) cueLayout {
	var l cueLayout
	n := utf8.RuneCountInString(c.Text)
	styles := runeStyles(c, n, &l)
	// One array for the cue's glyphs and one for their styles; each line
	// is a part of them.
	all := row{glyphs: make([]glyph, 0, n+n/8), styles: make([]style, 0, n+n/8)}
	var seen map[rune]bool
	from, k := 0, 0
	for _, r := range c.Text {
		st := styles[k]
		k++
		if r == '\n' {
			l.addLine(trimRow(row{glyphs: all.glyphs[from:], styles: all.styles[from:]}))
			from = len(all.glyphs)
			continue
		}
		before := len(all.glyphs)
		var how int
		all.glyphs, how = textOf(r, all.glyphs)
		for range len(all.glyphs) - before {
			all.styles = append(all.styles, st)
		}
		if how == asItself || seen[r] {
			continue
		}
		if seen == nil {
			seen = map[rune]bool{}
		}
		seen[r] = true
		switch {
		case how == asBlank && len(l.blanked) <= maxListed:
			l.blanked = append(l.blanked, fmt.Sprintf("U+%04X", r))
		case how == asSubstitute && len(l.substituted) <= maxListed:
			l.substituted = append(l.substituted, substitution(r, all.glyphs[before:]))
		}
	}
	l.addLine(trimRow(row{glyphs: all.glyphs[from:], styles: all.styles[from:]}))
	return l
}

// substitution describes what was written for r.
func substitution(r rune, written []glyph) string {
	s := make([]rune, len(written))
	for i, g := range written {
		s[i] = g.r
	}
	if len(s) == 0 {
		return fmt.Sprintf("U+%04X (left out)", r)
	}
	return strconv.Quote(string(r)) + " → " + strconv.Quote(string(s))
}

// runeStyles returns the 608 style of each of the n code points of c's
// text, from its spans: italics and underline where any span sets them,
// the colour of the last span (in span order) that sets one of 608's
// seven; other colours are reported by format.Unwritten. Italics are
// white in 608, so italic text loses its colour, which l records. It
// takes time linear in the text and the spans, however they overlap.
func runeStyles(c *caption.Cue, n int, l *cueLayout) []style {
	out := make([]style, n)
	if len(c.Spans) == 0 {
		return out
	}
	clip := func(v int) int { return min(max(v, 0), n) }
	italic, underline := make([]int, n+1), make([]int, n+1)
	for i := range c.Spans {
		sp := &c.Spans[i]
		s, e := clip(sp.Start), clip(sp.End)
		if sp.Label || s >= e {
			continue
		}
		if sp.Italic {
			italic[s]++
			italic[e]--
		}
		if sp.Underline {
			underline[s]++
			underline[e]--
		}
	}
	// Colours are painted from the last span back, each position once:
	// next[k] is the first position from k on not yet painted.
	next := make([]int, n+1)
	for k := range next {
		next[k] = k
	}
	find := func(k int) int {
		for next[k] != k {
			next[k] = next[next[k]]
			k = next[k]
		}
		return k
	}
	for i := len(c.Spans) - 1; i >= 0; i-- {
		sp := &c.Spans[i]
		col, ok := colourOf(sp.Color)
		if sp.Label || !ok {
			continue
		}
		for k := find(clip(sp.Start)); k < clip(sp.End); k = find(k) {
			out[k].colour = col
			next[k] = k + 1
		}
	}
	it, ul := 0, 0
	for k := range out {
		it += italic[k]
		ul += underline[k]
		out[k].italic, out[k].underline = it > 0, ul > 0
		if out[k].italic && out[k].colour != colourWhite {
			out[k].colour = colourWhite
			l.italicColour = true
		}
	}
	return out
}

// colourOf returns the 608 colour of an IR colour ("#rrggbb", or with an
// opaque alpha), false when 608 has no such colour.
func colourOf(hex string) (uint8, bool) {
	h := strings.ToLower(hex)
	if len(h) == 9 && strings.HasSuffix(h, "ff") {
		h = h[:7]
	}
	if h == "#ffffff" {
		return colourWhite, true
	}
	for i, c := range colourHex {
		if c != "" && c == h {
			return uint8(i), true
		}
	}
	return 0, false
}

// trimRow removes leading and trailing spaces.
func trimRow(r row) row {
	i, j := 0, len(r.glyphs)
	for i < j && r.glyphs[i].r == ' ' {
		i++
	}
	for j > i && r.glyphs[j-1].r == ' ' {
		j--
	}
	return row{glyphs: r.glyphs[i:j], styles: r.styles[i:j]}
}

// addLine adds a line of text as one row, or as several when it is longer
// than a row: each break is at the last space that fits, which is left
// out; a word longer than a row is cut at the edge.
func (l *cueLayout) addLine(r row) {
	if r.width() == 0 {
		return
	}
	if r.width() > screenCols {
		l.rewrapped++
	}
	for r.width() > screenCols {
		cut := -1
		for i := screenCols; i > 0; i-- {
			if r.glyphs[i].r == ' ' {
				cut = i
				break
			}
		}
		rest := cut + 1
		if cut < 0 {
			cut, rest = screenCols, screenCols
		}
		l.rows = append(l.rows, trimRow(row{glyphs: r.glyphs[:cut], styles: r.styles[:cut]}))
		r = trimRow(row{glyphs: r.glyphs[rest:], styles: r.styles[rest:]})
	}
	if r.width() > 0 {
		l.rows = append(l.rows, r)
	}
}
