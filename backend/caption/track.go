package caption

import "encoding/json"

// Version is the only IR version this package reads and writes.
const Version = 1

// Track is one caption timeline. Cues are in presentation order: by StartMs,
// then by source order.
type Track struct {
	Version int `json:"version"`
	// Language is a BCP 47 tag when the source declares one (TTML xml:lang,
	// a VTT Language header, ASS Language).
	Language string `json:"language,omitempty"`
	// FrameRate is the effective frame rate when the source declares one
	// (TTML ttp:frameRate times ttp:frameRateMultiplier).
	FrameRate float64 `json:"frameRate,omitempty"`
	// Source says what the track was read from; writers ignore it.
	Source  *Source  `json:"source,omitempty"`
	Styles  []Style  `json:"styles,omitempty"`
	Regions []Region `json:"regions,omitempty"`
	Cues    []Cue    `json:"cues"`
	// Ext holds format-only details under the format's name ("vtt", "ass",
	// "ttml"), so that a same-format round trip keeps them.
	Ext map[string]json.RawMessage `json:"ext,omitempty"`
}

// Source records the format and text encoding a [Track] was read from.
type Source struct {
	Format   string `json:"format"`
	Encoding string `json:"encoding,omitempty"`
}

// Cue is one caption event.
type Cue struct {
	// ID is the source's identifier (SRT counter, VTT cue id, TTML xml:id),
	// "" when there is none.
	ID      string `json:"id"`
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	// Text is what a viewer reads: markup removed, entities decoded, "\n"
	// between lines and no trailing newline.
	Text string `json:"text"`
	// Spans style ranges of Text; offsets count Unicode code points.
	Spans []Span `json:"spans,omitempty"`
	// Voice names the speaker (VTT <v>, TTML ttm:agent, ASS Name).
	Voice string `json:"voice,omitempty"`
	// Style names an entry of [Track.Styles] that applies to the whole cue.
	Style     string                     `json:"style,omitempty"`
	Placement *Placement                 `json:"placement,omitempty"`
	Ext       map[string]json.RawMessage `json:"ext,omitempty"`
	// SourceLine is the 1-based line of the source file the cue starts on,
	// 0 when unknown. It lets rules point an editor at the file; it is not
	// part of the JSON contract because it describes a file, not the timeline.
	SourceLine int `json:"-"`
}

// Lines returns the cue's text split into display lines.
func (c *Cue) Lines() []string { return splitNewlines(c.Text) }

// DurationMs returns EndMs-StartMs.
func (c *Cue) DurationMs() int64 { return c.EndMs - c.StartMs }

// Span styles the code points [Start, End) of a cue's Text.
type Span struct {
	Start     int  `json:"start"`
	End       int  `json:"end"`
	Italic    bool `json:"italic,omitempty"`
	Bold      bool `json:"bold,omitempty"`
	Underline bool `json:"underline,omitempty"`
	// Color and Background are CSS-style "#rrggbb" or "#rrggbbaa".
	Color      string `json:"color,omitempty"`
	Background string `json:"background,omitempty"`
	// Class holds WebVTT class names (space separated).
	Class string `json:"class,omitempty"`
	// Lang is a BCP 47 tag for a span in another language.
	Lang string `json:"lang,omitempty"`
	// Voice names the speaker of this span when a cue has several.
	Voice string `json:"voice,omitempty"`
	// Label marks the span's text as a speaker label ("NAME:") that the
	// engine wrote into the text for a delivery without voices, rather
	// than text of the source. It styles nothing, and writers write
	// nothing for it: it tells the fix profile, which runs next, and the
	// rules that check the delivery where one speaker stops and the next
	// starts. It is not part of the JSON contract, so no input can set it
	// and no ordinary text ("Note:", "at 10:30") is ever taken for a label.
	Label bool `json:"-"`
}

// Style is a named set of text properties, referenced by [Cue.Style].
type Style struct {
	ID         string `json:"id"`
	Italic     bool   `json:"italic,omitempty"`
	Bold       bool   `json:"bold,omitempty"`
	Underline  bool   `json:"underline,omitempty"`
	Color      string `json:"color,omitempty"`
	Background string `json:"background,omitempty"`
	FontFamily string `json:"fontFamily,omitempty"`
	// FontSize is a CSS length or percentage, as the source gave it.
	FontSize string `json:"fontSize,omitempty"`
	// Align is the default text alignment: start, center, end, left, right.
	Align string `json:"align,omitempty"`
}

// Region is a named display area, referenced by [Placement.Region]. Sizes
// and anchors are percentages of the video frame (width, height, viewport
// anchor) or of the region itself (region anchor), as in WebVTT and TTML.
type Region struct {
	ID     string   `json:"id"`
	Width  *float64 `json:"width,omitempty"`
	Height *float64 `json:"height,omitempty"`
	// Lines is the WebVTT region height in lines.
	Lines *int `json:"lines,omitempty"`
	// AnchorX/Y is the point of the region (percent of the region) that
	// sits on the viewport anchor.
	AnchorX *float64 `json:"anchorX,omitempty"`
	AnchorY *float64 `json:"anchorY,omitempty"`
	// ViewportX/Y is where that point sits (percent of the frame). A TTML
	// tts:origin becomes a viewport anchor with a 0,0 region anchor.
	ViewportX *float64 `json:"viewportX,omitempty"`
	ViewportY *float64 `json:"viewportY,omitempty"`
	// Scroll is "up" for a WebVTT roll-up region, "" otherwise.
	Scroll string `json:"scroll,omitempty"`
	// DisplayAlign is the vertical alignment inside the region: before,
	// center or after (TTML tts:displayAlign).
	DisplayAlign string `json:"displayAlign,omitempty"`
}
