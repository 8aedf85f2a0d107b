package format

import (
	"github.com/captionqa/captionqa/backend/caption"
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

// Placement features, as [UnwrittenCue] names them in reports.
const (
	FeatureLine       = "line"
	FeatureLineNumber = "line number"
	FeaturePosition   = "position"
	FeatureSize       = "size"
	FeatureVertical   = "vertical text"
	FeatureOffFrame   = "the part of the cue box past the frame edge"
)

// Unwritten appends to lost the features of sp that the writer of format
// f has no syntax for and so leaves out: SRT keeps styles and a text
// colour only; WebVTT cue text has no inline colour; TTML has no classes
// and names a speaker per cue, not per span; the IR keeps everything.
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
	case TTML:
		has(sp.Class != "", FeatureClass)
		has(sp.Voice != "", FeatureSpeaker)
	}
	return lost
}

// UnwrittenCue appends to lost what the writer of format f leaves out of
// cue c: the features of its spans ([Unwritten]), the ruby readings a
// WebVTT file gave it, which only WebVTT and the IR can carry, and the
// parts of its placement the format has no place for. SRT keeps only the
// area and alignment ({\anN}); TTML writes line, position and size as a
// region but not a line number, vertical text or values past the frame
// edge ([ttml.Unplaced]). TestUnwrittenPlacementMatchesWriters checks the
// placement against every writer.
func UnwrittenCue(f string, c *caption.Cue, lost []string) []string {
	for k := range c.Spans {
		lost = Unwritten(f, &c.Spans[k], lost)
	}
	if f != VTT && f != JSON && vtt.HasRuby(c) {
		lost = append(lost, FeatureRuby)
	}
	if p := c.Placement; p != nil {
		has := func(set bool, name string) {
			if set {
				lost = append(lost, name)
			}
		}
		switch f {
		case SRT:
			has(p.Line != nil, FeatureLine)
			has(p.Position != nil, FeaturePosition)
			has(p.Size != nil, FeatureSize)
			has(p.Vertical != "", FeatureVertical)
		case TTML:
			lineNumber, vertical, offFrame := ttml.Unplaced(p)
			has(lineNumber, FeatureLineNumber)
			has(vertical, FeatureVertical)
			has(offFrame, FeatureOffFrame)
		}
	}
	return lost
}

// Delivers reports whether a file of format f, written from a track that
// holds cue c, gives c to whoever reads it. Every reader rejects a cue
// that ends before it starts. The TTML writer leaves out the cues a TTML
// player never shows, those without duration or without text
// ([ttml.Shows]); the other formats carry them. TestDeliversMatchesWriters
// reads every writer's output back.
func Delivers(f string, c *caption.Cue) bool {
	if f == TTML {
		return ttml.Shows(c)
	}
	return c.EndMs >= c.StartMs
}

// HasRuby reports whether c holds ruby readings its text leaves out.
func HasRuby(c *caption.Cue) bool { return vtt.HasRuby(c) }

// CarriesLanguage reports whether the writer of format f declares the
// track's language: WebVTT in its header, TTML as xml:lang, the IR as a
// field. SRT has no place for one. TestCarriesLanguageMatchesWriters
// checks it against every writer.
func CarriesLanguage(f string) bool { return f != SRT }
