package stl

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
)

// Limits of what the writer writes.
const (
	// textFieldSize is the text field of a TTI block.
	textFieldSize = ttiSize - 16
	// maxBlocks is the most TTI blocks a subtitle can take: extension
	// block numbers 00 to EF, then FF for the last.
	maxBlocks = ebnReserved + 1
	// teletextRows is the number of rows of a teletext page subtitles
	// use (rows 1 to 23).
	teletextRows = 23
)

// subtitle text as the writer lays it out.
type written struct {
	src     int    // the cue's index in the track
	in, out int64  // times in frames
	tf      []byte // the text field, all blocks' worth
	// units holds the end offset in tf of each unit a block boundary may
	// follow: a character's bytes (two for a letter with a mark) and
	// control codes.
	units []int
	// rows holds the offset in tf where each row after the first starts.
	rows []int
	text string // the text as the reader reads it back
	vp   byte
	jc   byte
	// substituted lists the characters replaced, blanked counts those
	// written as a space or left out; colourMoved is set when a colour
	// change inside a word moved to the word's start.
	substituted []string
	blanked     int
	colourMoved bool
}

// plan is what the writer writes of a track.
type plan struct {
	rate frameRate
	subs []written
}

// rateFor returns the frame rate the writer times t in: STL30.01 (30 fps
// time codes of 29.97 fps video) for a track at 29.97 or 30 fps, else
// STL25.01.
func rateFor(t *caption.Track) (frameRate, string) {
	if math.Abs(t.FrameRate-30) < 0.05 || math.Abs(t.FrameRate-30000.0/1001) < 0.05 {
		r, _ := rateOf("STL30.01")
		return r, "STL30.01"
	}
	r, _ := rateOf("STL25.01")
	return r, "STL25.01"
}

// frameOf returns the frame nearest to ms at rate r.
func (r frameRate) frameOf(ms int64) int64 {
	ms = max(ms, 0)
	return (2*ms*r.num + r.den*1000) / (2 * r.den * 1000)
}

// maxMs is where the writer stops: 23:59:59:00, so that every time code
// stays within the 24 hours EBU Tech 3264 counts at either rate.
const maxMs = (24*3600 - 1) * 1000

func makePlan(t *caption.Track) plan {
	p := plan{}
	p.rate, _ = rateFor(t)
	for i := range t.Cues {
		c := &t.Cues[i]
		if !timed(c) {
			continue
		}
		if w, ok := layout(c); ok {
			w.src = i
			// A cue shorter than a frame still shows for one.
			w.in = p.rate.frameOf(c.StartMs)
			w.out = max(p.rate.frameOf(c.EndMs), w.in+1)
			p.subs = append(p.subs, w)
		}
	}
	return p
}

// timed reports whether c has times the writer writes: it lasts, and
// ends within the time codes' day.
func timed(c *caption.Cue) bool { return c.EndMs > c.StartMs && c.EndMs <= maxMs }

// set appends the codes that turn italics and underline from cur to st,
// and makes them st's.
func (cur *style) set(tf []byte, st style) []byte {
	if st.italic != cur.italic {
		cur.italic = st.italic
		tf = append(tf, toggle(cur.italic, italicOn, italicOff))
	}
	if st.underline != cur.underline {
		cur.underline = st.underline
		tf = append(tf, toggle(cur.underline, underlineOn, underlineOff))
	}
	return tf
}

// toggle returns the code that turns a style on or off.
func toggle(on bool, onCode, offCode byte) byte {
	if on {
		return onCode
	}
	return offCode
}

// style is what a character is written in.
type style struct {
	italic, underline bool
	colour            byte
}

// layout lays out the text of cue c, ok false when it shows nothing or
// is too long to write ([Shows]).
func layout(c *caption.Cue) (written, bool) {
	var w written
	runes := []rune(c.Text)
	styles := make([]style, len(runes))
	for k := range styles {
		styles[k].colour = white
	}
	for _, sp := range c.Spans {
		if sp.Label {
			continue // a speaker label's mark, which styles nothing
		}
		code, _ := colourCode(sp.Color)
		for k := max(sp.Start, 0); k < min(sp.End, len(runes)); k++ {
			styles[k].italic = styles[k].italic || sp.Italic
			styles[k].underline = styles[k].underline || sp.Underline
			if sp.Color != "" {
				styles[k].colour = code
			}
		}
	}
	// Encode each character, then split into lines as the reader reads
	// them: spaces at the ends trimmed, empty lines dropped.
	type cell struct {
		b  string
		st style
	}
	// The lines are slices of cells; a slice keeps its cells when
	// appending moves the rest.
	var lines [][]cell
	cells := make([]cell, 0, len(runes))
	from := 0
	endLine := func() {
		i, j := from, len(cells)
		for i < j && cells[i].b == " " {
			i++
		}
		for j > i && cells[j-1].b == " " {
			j--
		}
		if i < j {
			lines = append(lines, cells[i:j:j])
		}
		from = len(cells)
	}
	var text strings.Builder
	visible := false
	for k, r := range runes {
		if r == '\n' {
			endLine()
			continue
		}
		b, how := encodeRune(r)
		switch how {
		case asBlank:
			w.blanked++
		case asSubstitute:
			w.substituted = append(w.substituted, fmt.Sprintf("%q as %q", string(r), b))
		}
		for i := 0; i < len(b); i++ {
			n := 1
			if isMark(b[i]) && i+1 < len(b) {
				n = 2
			}
			cells = append(cells, cell{b[i : i+n], styles[k]})
			i += n - 1
		}
	}
	endLine()
	tf := make([]byte, 0, len(runes)+8)
	var cur style // italics and underline are kept across lines
	for n, l := range lines {
		if n > 0 {
			tf = append(tf, crlf)
			w.units = append(w.units, len(tf))
			w.rows = append(w.rows, len(tf))
			text.WriteByte('\n')
		}
		// A teletext subtitle row is boxed (start box twice, end box
		// twice): a decoder shows only boxed text on a subtitle page.
		tf = append(tf, startBox, startBox)
		// Italics and underline go on from the row before: said again,
		// for readers that start each row plain (go-astisub does).
		if cur.italic {
			tf = append(tf, italicOn)
		}
		if cur.underline {
			tf = append(tf, underlineOn)
		}
		w.units = append(w.units, len(tf))
		colour := byte(white) // each row starts white
		var wordColour byte
		for k, cl := range l {
			wordStart := k == 0 || l[k-1].b == " "
			if cl.b == " " {
				// A single space before a word in another colour becomes
				// the colour code, which shows as a space.
				if next := k + 1; next < len(l) && l[next].b != " " && l[k-1].b != " " && l[next].st.colour != colour {
					colour = l[next].st.colour
					tf = append(tf, colour)
					w.units = append(w.units, len(tf))
				} else {
					tf = cur.set(tf, cl.st)
					tf = append(tf, ' ')
					w.units = append(w.units, len(tf))
				}
				text.WriteByte(' ')
				continue
			}
			if wordStart {
				wordColour = cl.st.colour
				if wordColour != colour {
					// At the start of the line, or after several spaces,
					// the code takes no space of its own in the text.
					colour = wordColour
					tf = append(tf, colour)
					w.units = append(w.units, len(tf))
				}
			} else if cl.st.colour != wordColour {
				w.colourMoved = true
			}
			tf = cur.set(tf, cl.st)
			tf = append(tf, cl.b...)
			w.units = append(w.units, len(tf))
			r := decodeCell(cl.b)
			text.WriteString(r)
			if !isSpaceText(r) {
				visible = true
			}
		}
		tf = append(tf, endBox, endBox)
		w.units = append(w.units, len(tf))
	}
	w.tf, w.text = tf, text.String()
	if !visible || len(w.fields()) > maxBlocks {
		return w, false
	}
	w.vp, w.jc = position(c.Placement, len(lines))
	return w, true
}

// decodeCell returns the text the reader reads for a character's bytes.
func decodeCell(b string) string {
	if isMark(b[0]) {
		m := &latinMarks[b[0]-0xC1]
		if len(b) == 2 && b[1] == ' ' {
			return string(m.spacing)
		}
		return m.compose(rune(b[1]))
	}
	r, _ := latinRune(b[0])
	return string(r)
}

func isSpaceText(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

// position returns the vertical position (teletext row of the first
// line) and justification code of a cue of n lines placed at p: the
// bottom rows (22 and up), the top (from row 2) or the middle, as the
// reader reads the rows back in thirds of the screen; left, centred
// (the default) or right.
func position(p *caption.Placement, n int) (vp, jc byte) {
	area, align := "", ""
	if p != nil {
		area, align = p.Area, p.Align
	}
	first := teletextRows - n // the last line on row 22
	switch area {
	case caption.AreaTop:
		first = 2
	case caption.AreaMiddle:
		first = (teletextRows+1)/2 - n/2
	}
	jc = 2
	switch align {
	case "left", "start":
		jc = 1
	case "right", "end":
		jc = 3
	}
	return byte(max(first, 1)), jc
}

// fields splits the text field into the fields of its TTI blocks, none
// longer than a text field, no character split. A block ends where a row
// does when one ends in it, so that each block holds whole boxed rows
// (go-astisub reads each block alone, and shows no text before a start
// box); only a row longer than a text field is split inside.
func (w *written) fields() [][]byte {
	var out [][]byte
	from, last, row := 0, 0, 0
	for _, end := range w.units {
		if end-from > textFieldSize {
			cut := last
			for row < len(w.rows) && w.rows[row] <= last {
				if w.rows[row] > from {
					cut = w.rows[row]
				}
				row++
			}
			out = append(out, w.tf[from:cut])
			from = cut
		}
		last = end
	}
	return append(out, w.tf[from:])
}

// Shows reports whether [Write] writes cue c: it ends after it starts
// (one shorter than a frame is shown for a frame), by 23:59:59:00, and its
// text shows a character (a character table 00 lacks shows as a
// substitute). A text longer than 241 text fields (about 27,000
// characters) is not written either.
func Shows(c *caption.Cue) bool {
	if !timed(c) {
		return false
	}
	_, ok := layout(c)
	return ok
}

// RewritesText reports whether [Write] writes cue c's text so that it
// reads back different: characters replaced, spaces of other widths
// written as spaces, invisible characters left out. Spaces at the ends of
// lines and empty lines, which no viewer sees and the reader drops, do
// not count.
func RewritesText(c *caption.Cue) bool {
	if !timed(c) {
		return false
	}
	w, ok := layout(c)
	return ok && (len(w.substituted) > 0 || w.blanked > 0)
}

// Codes of the changes the writer reports.
const codeChange = caption.CodeUnsupportedFeature

// Changes lists the changes [Write] makes to t to fit EBU STL, one
// diagnostic per change and cue (CueIndex and Line name the cue): as
// warnings, characters table 00 (ISO 6937) lacks replaced by a substitute
// or [Substitute], or left out (a combining mark), and a colour that
// changes inside a word moved to the word's start (a teletext colour code
// takes a character cell, so it can only stand between words); as infos,
// spaces of other widths written as spaces and invisible characters left
// out. An info for the whole file says that times are rounded to frames.
// Cues [Shows] rejects are not written and not listed here;
// format.Delivers reports them.
func Changes(t *caption.Track) []caption.Diagnostic {
	p := makePlan(t)
	var out []caption.Diagnostic
	add := func(sev caption.Severity, w *written, msg string) {
		i := w.src
		out = append(out, caption.Diagnostic{Code: codeChange, Severity: sev, Line: t.Cues[i].SourceLine, CueIndex: &i,
			Message: fmt.Sprintf("cue %d: %s", i+1, msg)})
	}
	offFrame := false
	for k := range p.subs {
		w := &p.subs[k]
		c := &t.Cues[w.src]
		if p.rate.ms(w.in) != c.StartMs || p.rate.ms(w.out) != c.EndMs {
			offFrame = true
		}
		if len(w.substituted) > 0 {
			add(caption.SeverityWarning, w, "characters EBU STL's Latin table (ISO 6937) lacks were replaced: "+list(w.substituted))
		}
		if w.colourMoved {
			add(caption.SeverityWarning, w, "the colour changes inside a word; a teletext colour code takes a character cell, so the change was moved to the start of the word")
		}
		if w.blanked > 0 {
			add(caption.SeverityInfo, w, fmt.Sprintf("%d %s written as a space or left out (a space of another width, an invisible character)",
				w.blanked, plural(w.blanked, "character was", "characters were")))
		}
	}
	if offFrame {
		out = append(out, caption.Diagnostic{Code: codeChange, Severity: caption.SeverityInfo,
			Message: fmt.Sprintf("EBU STL times subtitles in frames: times were rounded to the nearest frame at %s fps", strings.TrimSuffix(fmt.Sprintf("%.2f", p.rate.fps()), ".00"))})
	}
	return out
}

// list names up to four replacements and counts the rest.
func list(s []string) string {
	s = slices.Compact(slices.Clone(s))
	if len(s) > 4 {
		return strings.Join(s[:4], ", ") + fmt.Sprintf(" and %d more", len(s)-4)
	}
	return strings.Join(s, ", ")
}

// Delivered returns what a file [Write] makes of t reads back to: the
// subtitles it writes ([Shows]) in time order, with their text as the
// reader reads it (substitutes in, spaces at the ends of lines and empty
// lines out) and their times, each exactly a frame's start. Spans and
// placement are left out.
func Delivered(t *caption.Track) *caption.Track {
	p := makePlan(t)
	out := &caption.Track{Version: caption.Version, FrameRate: p.rate.fps(), Cues: make([]caption.Cue, 0, len(p.subs))}
	for _, w := range p.subs {
		out.Cues = append(out.Cues, caption.Cue{StartMs: p.rate.ms(w.in), EndMs: p.rate.ms(w.out), Text: w.text,
			SourceLine: t.Cues[w.src].SourceLine})
	}
	slices.SortStableFunc(out.Cues, func(a, b caption.Cue) int { return int(a.StartMs - b.StartMs) })
	return out
}
