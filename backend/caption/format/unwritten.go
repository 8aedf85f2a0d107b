package format

import (
	"slices"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/scc"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/stl"
	"github.com/captionqa/captionqa/backend/caption/ttml"
	"github.com/captionqa/captionqa/backend/caption/vtt"
)

// Span features, as [Unwritten] names them in reports.
const (
	FeatureColour     = "colour"
	FeatureBackground = "background colour"
	FeatureClass      = "class"
	FeatureLanguage   = "language"
	FeatureSpeaker    = "speaker of a span"
	FeatureRuby       = "ruby reading"
)

// Cue features, as [UnwrittenCue] names them in reports: the cue's
// speaker, and what the track style it names sets (colour and background
// are [FeatureColour] and [FeatureBackground]).
const (
	FeatureCueSpeaker = "speaker of the cue"
	FeatureItalic     = "italics"
	FeatureBold       = "bold"
	FeatureUnderline  = "underline"
	FeatureFont       = "font"
	FeatureFontSize   = "font size"
)

// Placement features, as [UnwrittenCue] names them in reports.
const (
	FeatureLine       = "line"
	FeatureLineNumber = "line number"
	FeaturePosition   = "position"
	FeatureSize       = "size"
	FeatureVertical   = "vertical text"
	FeatureOffFrame   = "the part of the cue box past the frame edge"
)

// Region features, as [UnwrittenCue] names them in reports.
const (
	FeatureRegion         = "region"
	FeatureRegionLines    = "region height in lines"
	FeatureRegionHeight   = "region height in percent"
	FeatureRegionAlign    = "region display alignment"
	FeatureScroll         = "roll-up scrolling"
	FeatureRegionMoved    = "the region's position past the frame edge, moved inside"
	FeatureRegionOffFrame = "the part of the region past the frame edge"
)

// Unwritten appends to lost the features of sp that the writer of format
// f has no syntax for and so leaves out: SRT keeps styles and a text
// colour only; WebVTT cue text has no inline colour; TTML has no classes
// and names a speaker per cue, not per span, and neither has EBU-TT-D;
// SCC keeps italics, underline and 608's seven colours only; EBU STL
// keeps italics, underline and teletext's eight colours only; the IR
// keeps everything.
// TestUnwrittenMatchesWriters writes every feature in every format and
// reads it back, so this table cannot drift from the writers.
func Unwritten(f string, sp *caption.Span, lost []string) []string {
	has := func(set bool, name string) {
		if set {
			lost = append(lost, name)
		}
	}
	switch f {
	case SRT:
		has(sp.Background != "", FeatureBackground)
		has(sp.Class != "", FeatureClass)
		has(sp.Lang != "", FeatureLanguage)
		has(sp.Voice != "", FeatureSpeaker)
	case VTT:
		has(sp.Color != "", FeatureColour)
		has(sp.Background != "", FeatureBackground)
	case TTML, EBUTTD:
		has(sp.Class != "", FeatureClass)
		has(sp.Voice != "", FeatureSpeaker)
	case STL:
		has(sp.Bold, FeatureBold)
		has(sp.Color != "" && !stl.HasColour(sp.Color), FeatureColour)
		has(sp.Background != "", FeatureBackground)
		has(sp.Class != "", FeatureClass)
		has(sp.Lang != "", FeatureLanguage)
		has(sp.Voice != "", FeatureSpeaker)
	case SCC:
		has(sp.Bold, FeatureBold)
		has(sp.Color != "" && !scc.HasColour(sp.Color), FeatureColour)
		has(sp.Background != "", FeatureBackground)
		has(sp.Class != "", FeatureClass)
		has(sp.Lang != "", FeatureLanguage)
		has(sp.Voice != "", FeatureSpeaker)
	}
	return lost
}

// UnwrittenCue appends to lost what the writer of format f leaves out of
// cue c: the features of its spans ([Unwritten]), the ruby readings a
// WebVTT file gave it, which only WebVTT and the IR can carry, and the
// parts of its placement the format has no place for. r is the region of
// the track that c's placement names ([caption.Track.RegionsByID]), nil
// when there is none.
//
// SRT keeps only the area and alignment ({\anN}), so a line, position,
// size, vertical text and a region are lost; so do SCC, which places a
// caption by its rows and columns, and EBU STL, by its teletext rows and
// justification. WebVTT writes a region's
// height in lines only, with no display alignment. TTML writes line,
// position and size as a region, and a cue's own region as an IMSC1
// region, but not a line number, vertical text, a position inside a
// region, a region's line count or roll-up, or the place of a region past
// the frame edge (moved inside) and what lies past it ([ttml.Unplaced]);
// EBU-TT-D, written with TTML's regions, loses the same. TestUnwrittenPlacementMatchesWriters and
// TestUnwrittenRegionMatchesWriters check placement and regions against
// every writer.
//
// s is the track style that c.Style names, nil when there is none. Only
// the IR writes track styles; every other format loses what s sets but
// the spans of c also carry (see styleLost). SRT has no
// speaker syntax, so it also loses the cue's Voice, and so do SCC, EBU
// STL and EBU-TT-D (whose profile has no ttm:agent); WebVTT (<v>) and
// TTML (ttm:agent) keep it.
// TestUnwrittenCueFeaturesMatchesWriters checks both.
func UnwrittenCue(f string, c *caption.Cue, r *caption.Region, s *caption.Style, lost []string) []string {
	for k := range c.Spans {
		lost = Unwritten(f, &c.Spans[k], lost)
	}
	if (f == SRT || f == SCC || f == STL || f == EBUTTD) && c.Voice != "" {
		lost = append(lost, FeatureCueSpeaker)
	}
	if f != JSON && s != nil {
		lost = styleLost(c, s, lost)
	}
	if f != VTT && f != JSON && vtt.HasRuby(c) {
		lost = append(lost, FeatureRuby)
	}
	p := c.Placement
	if p == nil {
		return lost
	}
	if r != nil && p.Region == "" {
		r = nil
	}
	has := func(set bool, name string) {
		if set {
			lost = append(lost, name)
		}
	}
	switch f {
	case SRT, SCC, STL:
		has(p.Line != nil, FeatureLine)
		has(p.Position != nil, FeaturePosition)
		has(p.Size != nil, FeatureSize)
		has(p.Vertical != "", FeatureVertical)
		has(r != nil, FeatureRegion)
	case VTT:
		if r != nil {
			has(r.Height != nil, FeatureRegionHeight)
			has(r.DisplayAlign != "", FeatureRegionAlign)
		}
	case TTML, EBUTTD:
		l := ttml.Unplaced(p, r)
		has(l.LineNumber, FeatureLineNumber)
		has(l.Vertical, FeatureVertical)
		has(l.OffFrame, FeatureOffFrame)
		has(l.Position, FeaturePosition)
		has(l.RegionLines, FeatureRegionLines)
		has(l.Scroll, FeatureScroll)
		has(l.RegionMoved, FeatureRegionMoved)
		has(l.RegionOffFrame, FeatureRegionOffFrame)
	}
	return lost
}

// styleLost appends what style s of cue c sets that a writer other than
// the IR's does not write. Writers write a cue's spans, not the style it
// names, so a property the reader also put on spans over all the cue's
// visible text reaches the file (the ASS and TTML readers do so); the
// font and its size never do.
func styleLost(c *caption.Cue, s *caption.Style, lost []string) []string {
	has := func(set bool, name string) {
		if set {
			lost = append(lost, name)
		}
	}
	has(s.Italic && !spansCover(c, func(sp *caption.Span) bool { return sp.Italic }), FeatureItalic)
	has(s.Bold && !spansCover(c, func(sp *caption.Span) bool { return sp.Bold }), FeatureBold)
	has(s.Underline && !spansCover(c, func(sp *caption.Span) bool { return sp.Underline }), FeatureUnderline)
	has(s.Color != "" && !spansCover(c, func(sp *caption.Span) bool { return sp.Color != "" }), FeatureColour)
	has(s.Background != "" && !spansCover(c, func(sp *caption.Span) bool { return sp.Background != "" }), FeatureBackground)
	has(s.FontFamily != "", FeatureFont)
	has(s.FontSize != "", FeatureFontSize)
	return lost
}

// spansCover reports whether the spans of c for which set holds cover
// every visible code point of its text.
func spansCover(c *caption.Cue, set func(*caption.Span) bool) bool {
	k := 0
	for _, r := range c.Text {
		if !unicode.IsSpace(r) && !slices.ContainsFunc(c.Spans, func(sp caption.Span) bool {
			return sp.Start <= k && k < sp.End && set(&sp)
		}) {
			return false
		}
		k++
	}
	return true
}

// EachUnwritten calls fn for each cue of t that the writer of format f
// does not carry whole, with the features it leaves out of the cue
// ([UnwrittenCue], given the cue's region and style), sorted and each named once.
// lost is only valid during the call.
func EachUnwritten(f string, t *caption.Track, fn func(i int, lost []string)) {
	var regions map[string]*caption.Region
	if len(t.Regions) > 0 {
		regions = t.RegionsByID()
	}
	// The first definition of an id wins, as with regions.
	styles := make(map[string]*caption.Style, len(t.Styles))
	for i := len(t.Styles) - 1; i >= 0; i-- {
		styles[t.Styles[i].ID] = &t.Styles[i]
	}
	var lost []string
	for i := range t.Cues {
		c := &t.Cues[i]
		var r *caption.Region
		if c.Placement != nil {
			r = regions[c.Placement.Region]
		}
		var s *caption.Style
		if c.Style != "" {
			s = styles[c.Style]
		}
		if lost = UnwrittenCue(f, c, r, s, lost[:0]); len(lost) > 0 {
			slices.Sort(lost)
			fn(i, slices.Compact(lost))
		}
	}
}

// Delivers reports whether a file of format f, written from a track that
// holds cue c, gives c to whoever reads it. No caption writer writes a cue
// without visible text (only white space, or nothing), which shows
// nothing: the SRT and WebVTT writers leave it out ([srt.Shows],
// [vtt.Shows]), as the TTML writer leaves out the cues a TTML player never
// shows, those without duration or without text ([ttml.Shows]), and the
// SCC writer those that do not last a frame or show no character
// ([scc.Shows]), the EBU STL writer those that do not last or show no
// character ([stl.Shows]), and the EBU-TT-D writer those without
// duration or text ([ttml.ShowsEBUTTD]). Every reader rejects a cue that
// ends before it starts.
// The IR carries every cue. TestDeliversMatchesWriters reads every
// writer's output back.
func Delivers(f string, c *caption.Cue) bool {
	switch f {
	case TTML:
		return ttml.Shows(c)
	case SCC:
		return scc.Shows(c)
	case STL:
		return stl.Shows(c)
	case EBUTTD:
		return ttml.ShowsEBUTTD(c)
	case SRT:
		return c.EndMs >= c.StartMs && srt.Shows(c)
	case VTT:
		return c.EndMs >= c.StartMs && vtt.Shows(c)
	}
	return c.EndMs >= c.StartMs
}

// RewritesText reports whether the writer of format f writes the text of
// cue c so that it reads back different, which [Changes] describes: SRT
// writes "-->" as "--›" on a line that would read as a timing line
// ([srt.RewritesArrow]), and text that would read as markup in some
// reader with look-alikes ("‹…›" for a tag: [srt.RewritesMarkup]), since
// SRT has no escape its readers agree on; SCC re-wraps, splits and replaces
// characters to fit 608 ([scc.RewritesText]); EBU STL replaces the
// characters its Latin table lacks ([stl.RewritesText]). The other writers escape
// what they must with their format's own syntax, which reads back as the
// same text.
func RewritesText(f string, c *caption.Cue) bool {
	switch f {
	case SRT:
		return srt.RewritesArrow(c.Text) || srt.RewritesMarkup(c.Text)
	case SCC:
		return scc.RewritesText(c)
	case STL:
		return stl.RewritesText(c)
	}
	return false
}

// Changes returns the changes the writer of format f makes to t to fit
// its format, beyond leaving out what [UnwrittenCue] names and the cues
// [Delivers] rejects, as diagnostics the way a conversion reports them
// (CueIndex and Line name the cue): for SCC, lines re-wrapped to 32
// columns, cues split into captions of 4 rows, characters 608 lacks
// replaced, styling moved, and times moved to leave room to load each
// caption ([scc.Changes]); for SRT, text that would read as markup and
// the arrows of a line that would read as a timing line, written with
// look-alikes ([srt.Changes]); for EBU STL, characters its Latin table
// lacks replaced, colour changes inside a word moved to the word's
// start, and times rounded to frames ([stl.Changes]). It is nil for the
// other formats,
// whose writers carry text and times as they are. TestChangesMatchWriters
// reads the output back.
func Changes(f string, t *caption.Track) []caption.Diagnostic {
	switch f {
	case SCC:
		return scc.Changes(t)
	case SRT:
		return srt.Changes(t)
	case STL:
		return stl.Changes(t)
	}
	return nil
}

// HasRuby reports whether c holds ruby readings its text leaves out.
func HasRuby(c *caption.Cue) bool { return vtt.HasRuby(c) }

// CarriesLanguage reports whether the writer of format f declares the
// track's language: WebVTT in its header, TTML and EBU-TT-D as xml:lang,
// the IR as a field. SRT and SCC have no place for one; EBU STL has a
// code from a fixed list of languages without regions, so "pt-BR" reads
// back as "pt" and a language off the list as none.
// TestCarriesLanguageMatchesWriters checks it against every writer.
func CarriesLanguage(f string) bool { return f != SRT && f != SCC && f != STL }
