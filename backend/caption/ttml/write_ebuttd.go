package ttml

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
)

// FormatEBUTTD is the format name of EBU-TT-D documents (EBU Tech 3380),
// the TTML profile European broadcasters deliver subtitles for
// distribution in. The ttml reader reads them: they are TTML.
const FormatEBUTTD = "ebu-tt-d"

// The EBU-TT metadata namespace and the standard a document declares it conforms to.
const (
	nsEBUTTMeta = "urn:ebu:tt:metadata"
	ebuttdURN   = "urn:ebu:tt:distribution:2018-04"
)

// ebuttdCells is the cell resolution the writer declares: TTML's default
// (32 columns by 15 rows), which EBU-TT-D asks to be stated, so that a
// player that honours it and one that does not lay out the same.
const ebuttdCells = "32 15"

// areaBoxes is a read-only table of the regions of the three areas, as
// [Write] writes them: the frame's 80% safe area, text at its bottom,
// middle or top.
var areaBoxes = [...]struct {
	id string
	b  box
}{
	{"bottom", box{x: 10, y: 10, w: 80, h: 80, displayAlign: "after"}},
	{"middle", box{x: 10, y: 10, w: 80, h: 80, displayAlign: "center"}},
	{"top", box{x: 10, y: 10, w: 80, h: 80, displayAlign: "before"}},
}

// WriteEBUTTD writes t as an EBU-TT-D document (EBU Tech 3380): a <tt>
// with xml:lang, ttp:timeBase="media" and ttp:cellResolution; in <head>
// the ebuttm:documentMetadata that names the EBU-TT-D standard
// (ebuttm:conformsToStandard), the styles and the regions; in <body> one
// <div> of a <p> per cue, times in media time HH:MM:SS.mmm, its text in
// <span> elements (a span for each run of one style) with <br/> between
// lines. EBU-TT-D has no inline styles: each distinct style of a span is
// a <style> in <head> (s1, s2…, in order of first use) and a cue's text
// alignment is that of its region, written once per region and alignment
// used (bottom-left, and so on). Regions are those [Write] writes. A cue
// gets xml:id "sub" and its number when its id is not an XML name no
// other id uses. Cues [ShowsEBUTTD] rejects are left out. The output is
// deterministic; the error is only ever the writer's.
func WriteEBUTTD(w io.Writer, t *caption.Track) error {
	lang := t.Language
	if lang == "" {
		lang = "und"
	}
	b := make([]byte, 0, 1024+len(t.Cues)*144)
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<tt xmlns="`+nsTTML+`" xmlns:tts="`+nsTTMLStyle+`" xmlns:ttp="`+nsTTMLParam+`" xmlns:ebuttm="`+nsEBUTTMeta+`"`+
		` ttp:timeBase="media" ttp:cellResolution="`+ebuttdCells+`" xml:lang="`...)
	b = appendEscaped(b, lang, true)
	b = append(b, "\">\n  <head>\n    <metadata>\n      <ebuttm:documentMetadata>\n"+
		"        <ebuttm:conformsToStandard>"+ebuttdURN+"</ebuttm:conformsToStandard>\n"+
		"      </ebuttm:documentMetadata>\n    </metadata>\n"...)

	used := map[string]bool{"default": true}
	for _, a := range areaBoxes {
		used[a.id] = true
	}
	regions := newLayout(t, used)
	styles := newSpanStyles(used)
	type placedRegion struct{ id, align string }
	alignedID := map[placedRegion]string{}
	var aligned []placedRegion
	cues := make([]ebuttdCue, 0, len(t.Cues))
	for i := range t.Cues {
		c := &t.Cues[i]
		if !ShowsEBUTTD(c) {
			continue
		}
		ec := ebuttdCue{c: c, region: regions.region(c.Placement)}
		if c.Placement != nil && c.Placement.Align != "" {
			k := placedRegion{ec.region, c.Placement.Align}
			if alignedID[k] == "" {
				alignedID[k] = xmlID(ec.region+"-"+c.Placement.Align, used)
				aligned = append(aligned, k)
			}
			ec.region = alignedID[k]
		}
		ec.runs = styles.runs(c)
		cues = append(cues, ec)
	}

	b = append(b, "    <styling>\n      <style xml:id=\"default\" tts:fontFamily=\"proportionalSansSerif\"/>\n"...)
	aligns := map[string]string{}
	for _, k := range aligned {
		if aligns[k.align] == "" {
			aligns[k.align] = xmlID("align-"+k.align, used)
			b = append(b, `      <style xml:id="`...)
			b = append(b, aligns[k.align]...)
			b = append(b, `" tts:textAlign="`...)
			b = appendEscaped(b, k.align, true)
			b = append(b, "\"/>\n"...)
		}
	}
	b = styles.appendStyles(b)
	b = append(b, "    </styling>\n    <layout>\n"...)
	boxOf := map[string]box{}
	for _, a := range areaBoxes {
		boxOf[a.id] = a.b
		b = a.b.appendRegion(b, a.id)
	}
	for i, bx := range regions.boxes {
		boxOf[regions.ids[i]] = bx
		b = bx.appendRegion(b, regions.ids[i])
	}
	for _, k := range aligned {
		r := boxOf[k.id].appendRegion(nil, alignedID[k])
		// The region's text alignment is a style reference.
		r = append(r[:len(r)-len("/>\n")], ` style="`...)
		r = append(r, aligns[k.align]...)
		b = append(append(b, r...), "\"/>\n"...)
	}
	b = append(b, "    </layout>\n  </head>\n  <body style=\"default\">\n    <div>\n"...)
	for n, ec := range cues {
		b = ec.append(b, n+1, used)
	}
	b = append(b, "    </div>\n  </body>\n</tt>\n"...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("ttml: write: %w", err)
	}
	return nil
}

// ShowsEBUTTD reports whether [WriteEBUTTD] writes cue c: as [Shows]
// says, and only with an end after its start, as EBU-TT-D times every
// paragraph with both.
func ShowsEBUTTD(c *caption.Cue) bool {
	return c.EndMs > c.StartMs && strings.TrimFunc(c.Text, func(r rune) bool { return unicode.IsSpace(r) || !xmlChar(r) }) != ""
}

// ebuttdCue is a cue as WriteEBUTTD writes it.
type ebuttdCue struct {
	c      *caption.Cue
	region string
	runs   []styledRun
}

// styledRun is a run of a line's text in one style, "" for none; a run
// with newline set is a line break.
type styledRun struct {
	text, style, lang string
	newline           bool
}

func (ec *ebuttdCue) append(b []byte, n int, used map[string]bool) []byte {
	c := ec.c
	id := xmlID(c.ID, used)
	if id == "" {
		id = xmlID("sub"+strconv.Itoa(n), used)
	}
	b = append(b, `      <p xml:id="`...)
	b = append(b, id...)
	b = append(b, `" begin="`...)
	b = caption.AppendClock(b, c.StartMs, 2, '.')
	b = append(b, `" end="`...)
	b = caption.AppendClock(b, c.EndMs, 2, '.')
	b = append(b, `" region="`...)
	b = append(b, ec.region...)
	b = append(b, '"')
	if needsPreserve(c.Text) {
		b = append(b, ` xml:space="preserve"`...)
	}
	b = append(b, '>')
	for _, r := range ec.runs {
		if r.newline {
			b = append(b, "<br/>"...)
			continue
		}
		b = append(b, "<span"...)
		if r.style != "" {
			b = append(b, ` style="`...)
			b = append(b, r.style...)
			b = append(b, '"')
		}
		if r.lang != "" {
			b = append(b, ` xml:lang="`...)
			b = appendEscaped(b, r.lang, true)
			b = append(b, '"')
		}
		b = append(b, '>')
		b = appendEscaped(b, r.text, false)
		b = append(b, "</span>"...)
	}
	return append(b, "</p>\n"...)
}

// spanStyle is what a <style> of a span sets.
type spanStyle struct {
	italic, bold, underline bool
	color, background       string
}

// spanStyles names the distinct span styles in order of first use.
type spanStyles struct {
	used  map[string]bool
	ids   map[spanStyle]string
	order []spanStyle
}

func newSpanStyles(used map[string]bool) spanStyles {
	return spanStyles{used: used, ids: map[spanStyle]string{}}
}

// runs splits c's text into lines and runs of one style, as appendText
// does: later spans win.
func (s *spanStyles) runs(c *caption.Cue) []styledRun {
	runes := []rune(c.Text)
	n := len(runes)
	at := make([]int, n) // index into c.Spans + 1, 0 for none
	for i, sp := range c.Spans {
		if sp.Label {
			continue
		}
		for k := max(sp.Start, 0); k < min(sp.End, n); k++ {
			at[k] = i + 1
		}
	}
	var out []styledRun
	for i := 0; i < n; {
		if runes[i] == '\n' {
			out = append(out, styledRun{newline: true})
			i++
			continue
		}
		j := i
		for j < n && runes[j] != '\n' && at[j] == at[i] {
			j++
		}
		r := styledRun{text: string(runes[i:j])}
		if at[i] > 0 {
			sp := &c.Spans[at[i]-1]
			r.style, r.lang = s.id(sp), sp.Lang
		}
		out = append(out, r)
		i = j
	}
	return out
}

// id returns the xml:id of the style of span sp, "" when it sets nothing.
func (s *spanStyles) id(sp *caption.Span) string {
	st := spanStyle{italic: sp.Italic, bold: sp.Bold, underline: sp.Underline}
	st.color, _ = parseColor(sp.Color)
	st.background, _ = parseColor(sp.Background)
	if st == (spanStyle{}) {
		return ""
	}
	if id, ok := s.ids[st]; ok {
		return id
	}
	id := xmlID("s"+strconv.Itoa(len(s.order)+1), s.used)
	s.ids[st] = id
	s.order = append(s.order, st)
	return id
}

// appendStyles appends a <style> for each span style used.
func (s *spanStyles) appendStyles(b []byte) []byte {
	for _, st := range s.order {
		b = append(b, `      <style xml:id="`...)
		b = append(b, s.ids[st]...)
		b = append(b, '"')
		if st.italic {
			b = append(b, ` tts:fontStyle="italic"`...)
		}
		if st.bold {
			b = append(b, ` tts:fontWeight="bold"`...)
		}
		if st.underline {
			b = append(b, ` tts:textDecoration="underline"`...)
		}
		if st.color != "" {
			b = append(b, ` tts:color="`...)
			b = append(b, st.color...)
			b = append(b, '"')
		}
		if st.background != "" {
			b = append(b, ` tts:backgroundColor="`...)
			b = append(b, st.background...)
			b = append(b, '"')
		}
		b = append(b, "/>\n"...)
	}
	return b
}
