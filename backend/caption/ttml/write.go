package ttml

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// header is the fixed head of every document Write produces: IMSC1 text
// profile, one style per text property the IR carries, and three regions
// covering the bottom, middle and top of the frame's 80% safe area. The
// track's regions and those of placed cues (see layout.go) follow them in
// <layout>.
const header = `    <styling>
      <style xml:id="default" tts:fontFamily="proportionalSansSerif" tts:textAlign="center"/>
      <style xml:id="italic" tts:fontStyle="italic"/>
      <style xml:id="bold" tts:fontWeight="bold"/>
      <style xml:id="underline" tts:textDecoration="underline"/>
    </styling>
    <layout>
      <region xml:id="bottom" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="after"/>
      <region xml:id="middle" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="center"/>
      <region xml:id="top" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="before"/>
`

// Write writes t as an IMSC1 text-profile TTML document: one <p> per cue
// with clock times HH:MM:SS.mmm, in the track's region it names (see
// layout.go), or one of its own for a cue with WebVTT line, position or
// size (placement.go), or else the region of its area; style
// references for italic, bold and underline and inline colours. Cue ids
// that are not XML names (such as SRT counters) are written as "c" plus
// the id with other characters replaced by "_"; empty ids are left out.
// Cues a TTML player never shows ([Shows]) are left out too. The output
// is deterministic.
func Write(w io.Writer, t *caption.Track) error {
	lang := t.Language
	if lang == "" {
		lang = "und"
	}
	b := make([]byte, 0, 1024+len(t.Cues)*128)
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<tt xmlns="`+nsTTML+`" xmlns:tts="`+nsTTMLStyle+`" xmlns:ttp="`+nsTTMLParam+`" xmlns:ttm="`+nsTTMLMeta+`"`+
		` ttp:profile="`+profileIMSC1+`" ttp:timeBase="media" xml:lang="`...)
	b = appendEscaped(b, lang, true)
	b = append(b, "\">\n  <head>\n"...)
	agents := agentIDs(t)
	if len(agents.order) > 0 {
		b = append(b, "    <metadata>\n"...)
		for i, name := range agents.order {
			b = append(b, `      <ttm:agent xml:id="agent`...)
			b = strconv.AppendInt(b, int64(i+1), 10)
			b = append(b, `" type="person"><ttm:name type="full">`...)
			b = appendEscaped(b, name, false)
			b = append(b, "</ttm:name></ttm:agent>\n"...)
		}
		b = append(b, "    </metadata>\n"...)
	}
	b = append(b, header...)
	// Region, cue, style and agent ids share the document's xml:id space:
	// a cue or region with the id "top" would otherwise redefine a region.
	used := map[string]bool{}
	for _, id := range []string{"default", "italic", "bold", "underline", "bottom", "middle", "top"} {
		used[id] = true
	}
	for _, id := range agents.id {
		used[id] = true
	}
	regions := newLayout(t, used)
	for i, bx := range regions.boxes {
		b = bx.appendRegion(b, regions.ids[i])
	}
	b = append(b, "    </layout>\n  </head>\n  <body style=\"default\">\n    <div>\n"...)
	for i := range t.Cues {
		if Shows(&t.Cues[i]) {
			b = appendCue(b, &t.Cues[i], used, agents, &regions)
		}
	}
	b = append(b, "    </div>\n  </body>\n</tt>\n"...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("ttml: write: %w", err)
	}
	return nil
}

// Shows reports whether a TTML player shows c, and so whether [Write]
// writes it. TTML presents a paragraph only while its interval is not
// empty and only when it has text to display: a cue that ends where it
// starts (or before), or whose text is blank once the characters XML
// cannot carry are dropped, would be written as a <p> that no player and
// no reader (this package's included) ever shows. Writing it would make
// the file claim a cue it does not deliver, so the caller reports it
// instead. An open-ended cue the reader ended where it starts is shown:
// Write keeps its end open (see appendCue).
func Shows(c *caption.Cue) bool {
	if _, open := c.Ext[Format]; !open && c.EndMs <= c.StartMs {
		return false
	}
	return strings.TrimFunc(c.Text, func(r rune) bool { return unicode.IsSpace(r) || !xmlChar(r) }) != ""
}

// agentTable numbers the distinct voices in order of first use.
type agentTable struct {
	order []string
	id    map[string]string
}

func agentIDs(t *caption.Track) agentTable {
	a := agentTable{id: map[string]string{}}
	for _, c := range t.Cues {
		if c.Voice != "" && a.id[c.Voice] == "" {
			a.order = append(a.order, c.Voice)
			a.id[c.Voice] = "agent" + strconv.Itoa(len(a.order))
		}
	}
	return a
}

func appendCue(b []byte, c *caption.Cue, used map[string]bool, agents agentTable, regions *layout) []byte {
	b = append(b, "      <p"...)
	if id := xmlID(c.ID, used); id != "" {
		b = append(b, ` xml:id="`...)
		b = append(b, id...)
		b = append(b, '"')
	}
	b = append(b, ` begin="`...)
	b = caption.AppendClock(b, c.StartMs, 2, '.')
	b = append(b, '"')
	if _, open := c.Ext[Format]; !open || c.EndMs > c.StartMs {
		// An open-ended cue that the reader had to end where it starts
		// keeps its open end, so reading the output back gives it again.
		b = append(b, ` end="`...)
		b = caption.AppendClock(b, max(c.EndMs, c.StartMs), 2, '.')
		b = append(b, '"')
	}
	b = append(b, ` region="`...)
	region := regions.region(c.Placement)
	b = append(b, region...)
	b = append(b, '"')
	if c.Placement != nil && c.Placement.Align != "" {
		b = append(b, ` tts:textAlign="`...)
		b = appendEscaped(b, c.Placement.Align, true)
		b = append(b, '"')
	}
	if c.Voice != "" {
		b = append(b, ` ttm:agent="`...)
		b = append(b, agents.id[c.Voice]...)
		b = append(b, '"')
	}
	if needsPreserve(c.Text) {
		// Runs of spaces and spaces at line ends would otherwise collapse.
		b = append(b, ` xml:space="preserve"`...)
	}
	b = append(b, '>')
	b = appendText(b, c.Text, c.Spans)
	return append(b, "</p>\n"...)
}

// appendText writes text with its spans: each run of one style becomes a
// <span>, and line breaks become <br/> outside spans.
func appendText(b []byte, text string, spans []caption.Span) []byte {
	n := utf8.RuneCountInString(text)
	style := make([]int, n) // index into spans + 1, 0 for none; later spans win
	for i, s := range spans {
		if s.Label {
			continue // a speaker label's mark, which styles nothing
		}
		for k := max(s.Start, 0); k < min(s.End, n); k++ {
			style[k] = i + 1
		}
	}
	runes := []rune(text)
	for i := 0; i < n; {
		if runes[i] == '\n' {
			b = append(b, "<br/>"...)
			i++
			continue
		}
		j := i
		for j < n && runes[j] != '\n' && style[j] == style[i] {
			j++
		}
		seg := string(runes[i:j])
		if style[i] == 0 {
			b = appendEscaped(b, seg, false)
		} else {
			b = appendSpan(b, spans[style[i]-1], seg)
		}
		i = j
	}
	return b
}

func appendSpan(b []byte, s caption.Span, seg string) []byte {
	var refs []string
	if s.Italic {
		refs = append(refs, "italic")
	}
	if s.Bold {
		refs = append(refs, "bold")
	}
	if s.Underline {
		refs = append(refs, "underline")
	}
	b = append(b, "<span"...)
	if len(refs) > 0 {
		b = append(b, ` style="`...)
		b = append(b, strings.Join(refs, " ")...)
		b = append(b, '"')
	}
	if c, ok := parseColor(s.Color); ok {
		b = append(b, ` tts:color="`...)
		b = append(b, c...)
		b = append(b, '"')
	}
	if c, ok := parseColor(s.Background); ok {
		b = append(b, ` tts:backgroundColor="`...)
		b = append(b, c...)
		b = append(b, '"')
	}
	if s.Lang != "" {
		b = append(b, ` xml:lang="`...)
		b = appendEscaped(b, s.Lang, true)
		b = append(b, '"')
	}
	b = append(b, '>')
	b = appendEscaped(b, seg, false)
	return append(b, "</span>"...)
}

// needsPreserve reports whether default white-space handling would change
// text: a run of spaces, a tab, or a space at the start or end of a line.
func needsPreserve(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasSuffix(line, " ") ||
			strings.Contains(line, "  ") || strings.ContainsAny(line, "\t\r") {
			return true
		}
	}
	return false
}

// appendEscaped writes s as XML character data (or an attribute value),
// dropping characters XML 1.0 cannot carry.
func appendEscaped(b []byte, s string, attr bool) []byte {
	for _, r := range s {
		switch {
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '&':
			b = append(b, "&amp;"...)
		case r == '"' && attr:
			b = append(b, "&quot;"...)
		case r == '\t' && attr:
			b = append(b, "&#9;"...)
		case r == '\n' && attr:
			b = append(b, "&#10;"...)
		case r == '\r':
			b = append(b, "&#13;"...)
		case xmlChar(r):
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// xmlChar reports whether XML 1.0 can carry r (as itself or as a
// character reference).
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// xmlID returns id as a unique XML name for xml:id, or "" for no id.
func xmlID(id string, used map[string]bool) string {
	if id == "" {
		return ""
	}
	out := id
	if !isNCName(id) {
		var sb strings.Builder
		sb.WriteByte('c')
		for _, r := range id {
			if isNameRune(r, false) {
				sb.WriteRune(r)
			} else {
				sb.WriteByte('_')
			}
		}
		out = sb.String()
	}
	base := out
	for k := 2; used[out]; k++ {
		out = base + "-" + strconv.Itoa(k)
	}
	used[out] = true
	return out
}

func isNCName(s string) bool {
	for i, r := range s {
		if !isNameRune(r, i == 0) {
			return false
		}
	}
	return s != ""
}

// isNameRune is a conservative XML NCName test: ASCII letters, digits,
// '_', '-', '.', and non-ASCII letters.
func isNameRune(r rune, first bool) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		return true
	case r >= '0' && r <= '9', r == '-', r == '.':
		return !first
	}
	return r >= 0xC0 && r <= 0xD7FF && r != 0xD7 && r != 0xF7 || r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD
}
