package vtt

import (
	"encoding/json"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// trackExt is Track.Ext["vtt"]: what a vtt->vtt round trip must keep that
// the IR has no field for.
type trackExt struct {
	// Styles holds the CSS of each STYLE block, in file order.
	Styles []string `json:"styles,omitempty"`
}

// cueExt is Cue.Ext["vtt"], present only when the payload's markup cannot
// be rebuilt from the spans (ruby, timestamp tags).
type cueExt struct {
	Payload string `json:"payload"`
}

// HasRuby reports whether c keeps WebVTT ruby markup ("<rt>" readings)
// that its text and spans leave out, which only a WebVTT writer can write
// back.
func HasRuby(c *caption.Cue) bool {
	raw, ok := c.Ext[Format]
	if !ok {
		return false
	}
	var ext cueExt
	return json.Unmarshal(raw, &ext) == nil && strings.Contains(ext.Payload, "<rt")
}

// parseText is the [caption.ParseTextFunc] of WebVTT: the spec's parser,
// then the mapping onto the IR.
func parseText(text string) (*caption.Track, caption.Diagnostics) {
	f, d := parseFile(text)
	t := &caption.Track{Version: caption.Version, Cues: make([]caption.Cue, 0, len(f.cues))}
	t.Language = headerLanguage(f.header)
	t.Regions = irRegions(f.regions, d)
	if len(f.styles) > 0 {
		t.Ext = map[string]json.RawMessage{Format: mustJSON(trackExt{Styles: f.styles})}
	}
	var tp textParser
	for i := range f.cues {
		rc := &f.cues[i]
		if rc.end.ms < rc.start.ms {
			// The spec's parser keeps such a cue, but a player never shows
			// it (it is never active); the IR holds only displayable
			// ranges, as every other reader's does.
			d.errorf(caption.CodeEndBeforeStart, max(rc.line, rc.payloadLine-1), "cue dropped: it ends (%s) before it starts (%s), so no player shows it",
				caption.FormatClock(rc.end.ms), caption.FormatClock(rc.start.ms))
			continue
		}
		t.Cues = append(t.Cues, irCue(&tp, rc, d))
	}
	return t, d.done()
}

// irCue maps one parsed cue onto the IR.
func irCue(tp *textParser, rc *rawCue, d *diagSink) caption.Cue {
	ct := tp.parse(rc.payload)
	if ct.problem != "" {
		line := rc.payloadLine + strings.Count(rc.payload[:ct.problemPos], "\n")
		d.warnf(caption.CodeInvalidMarkup, line, "%s", ct.problem)
	}
	if ct.reading != "" {
		// The model has no ruby: the reading survives only a WebVTT
		// output, which writes the kept payload.
		d.add(caption.CodeUnsupportedFeature, caption.SeverityInfo, rc.payloadLine,
			"the ruby reading %q is not part of the cue text; only a WebVTT output keeps it", clip(ct.reading))
	}
	c := caption.Cue{
		ID:         rc.id,
		StartMs:    rc.start.ms,
		EndMs:      rc.end.ms,
		Text:       ct.text,
		Spans:      ct.spans,
		Voice:      ct.voice,
		Placement:  placement(&rc.settings),
		SourceLine: rc.line,
	}
	if ct.keepRaw {
		c.Ext = map[string]json.RawMessage{Format: mustJSON(cueExt{Payload: rc.payload})}
	}
	return c
}

// placement maps cue settings onto a [caption.Placement]; nil when the cue
// has none in force.
func placement(cs *cueSettings) *caption.Placement {
	p := caption.Placement{
		Vertical:      cs.vertical,
		LineAlign:     cs.lineAlign,
		Position:      cs.position,
		PositionAlign: cs.positionAlign,
		Size:          cs.size,
		Align:         cs.align,
	}
	if cs.line != nil {
		p.Line, p.LineUnit = cs.line, caption.LineUnitPercent
		if cs.snapToLines {
			p.LineUnit = caption.LineUnitLines
		}
	}
	if cs.region != nil {
		p.Region = cs.region.id
	}
	p.Area = area(&p)
	if p.IsZero() {
		return nil
	}
	return &p
}

// area is the coarse vertical area of a horizontal cue: "top" for line
// numbers 0 to 2 (the first lines from the top) or percentages below 34,
// "middle" for percentages from 34 to 66, and "" (the default, bottom)
// otherwise. Negative line numbers count from the bottom.
func area(p *caption.Placement) string {
	if p.Line == nil || p.Vertical != "" {
		return ""
	}
	v := *p.Line
	switch {
	case p.LineUnit == caption.LineUnitLines && v >= 0 && v <= 2:
		return caption.AreaTop
	case p.LineUnit == caption.LineUnitPercent && v < 34:
		return caption.AreaTop
	case p.LineUnit == caption.LineUnitPercent && v <= 66:
		return caption.AreaMiddle
	}
	return ""
}

// headerLanguage finds a "Language:" line in the header block, the
// metadata YouTube and others write after "WEBVTT".
func headerLanguage(header string) string {
	for header != "" {
		var line string
		line, header, _ = strings.Cut(header, "\n")
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "language") {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// mustJSON marshals the Ext structs, which hold only strings and so cannot
// fail to marshal; "{}" stands in should that ever change.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}
