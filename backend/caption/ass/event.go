package ass

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// isEventType reports whether key (lower case) starts an [Events] line.
func isEventType(key string) bool {
	switch key {
	case "dialogue", "comment", "picture", "sound", "movie", "command":
		return true
	}
	return false
}

// cueExt is the JSON form of Cue.Ext["ass"]: event fields the IR has no
// place for, when they differ from their defaults.
type cueExt struct {
	Layer   int         `json:"layer,omitempty"`
	MarginL int         `json:"marginL,omitempty"`
	MarginR int         `json:"marginR,omitempty"`
	MarginV int         `json:"marginV,omitempty"`
	Effect  string      `json:"effect,omitempty"`
	Pos     *[2]float64 `json:"pos,omitempty"`
}

// event handles one event line; kind is its lower-case type.
func (p *parser) event(kind, value string, n int) {
	if p.sec != secEvents && !p.warnedOutside {
		p.warnedOutside = true
		p.d.Warn(caption.CodeNonStandardSyntax, n, "event lines appear outside an [Events] section; they were read as events")
	}
	switch kind {
	case "comment":
		return
	case "dialogue":
	default:
		p.d.Info(caption.CodeUnsupportedFeature, n, "%s events are not captions and were ignored", strings.ToUpper(kind[:1])+kind[1:])
		return
	}
	cols := p.colsFor(secEvents, &p.eventCols, n)
	fields, ok := splitFields(value, len(cols))
	if !ok {
		p.d.Error(caption.CodeMalformedBlock, n, "the Dialogue line has %d fields where its Format has %d; it was skipped", len(fields), len(cols))
		return
	}
	field := func(name string) string {
		if i := indexOf(cols, name); i >= 0 && i < len(cols)-1 {
			return strings.TrimSpace(fields[i])
		}
		return ""
	}
	startField, endField := field("start"), field("end")
	start, ok1 := parseTime(startField)
	end, ok2 := parseTime(endField)
	if !ok1 || !ok2 {
		bad := startField
		if ok1 {
			bad = endField
		}
		p.d.Error(caption.CodeInvalidTimestamp, n, "time %q is not H:MM:SS.cc; the event was skipped", clip(bad))
		return
	}
	if end < start {
		p.d.Error(caption.CodeEndBeforeStart, n, "the event ends (%s) before it starts (%s) and was skipped",
			caption.FormatClock(end), caption.FormatClock(start))
		return
	}
	c := caption.Cue{StartMs: start, EndMs: end, Voice: field("name"), SourceLine: n}
	base, align := defaultState(), 2
	if k, ok := p.resolveStyle(styleName(field("style")), n); ok {
		c.Style = p.t.Styles[k].ID
		base, align = p.styleAttrs[k], p.styleAlign[k]
	}
	o := p.cueText(fields[len(fields)-1], base)
	c.Text, c.Spans = trimLineSpaces(o.text, o.spans)
	if o.drawing {
		p.d.Info(caption.CodeUnsupportedFeature, n, "the event draws vector shapes (\\p), which are left out of its text")
	}
	if o.align != 0 {
		align = o.align
	}
	c.Placement = p.placement(align, o.pos)
	ext := cueExt{
		Layer: atoi(field("layer")), Effect: field("effect"), Pos: o.pos,
		MarginL: atoi(field("marginl")), MarginR: atoi(field("marginr")), MarginV: atoi(field("marginv")),
	}
	if ext != (cueExt{}) {
		if b, err := json.Marshal(ext); err == nil {
			c.Ext = map[string]json.RawMessage{Format: b}
		}
	}
	p.t.Cues = append(p.t.Cues, c)
}

// resolveStyle finds the style an event names. An unknown name falls back
// to the script's "Default" style or, when it has none, to libass's
// built-in default (no style: white, upright, bottom centre), with a
// warning the first time the name is seen.
func (p *parser) resolveStyle(name string, n int) (int, bool) {
	if k, ok := p.lookupStyle(name); ok {
		return k, true
	}
	k, ok := p.lookupStyle("Default")
	// Every renderer has a Default style of its own, so naming it without
	// defining it is no mistake.
	if !strings.EqualFold(name, "Default") && !p.warnedStyle[name] {
		p.warnedStyle[name] = true
		if ok {
			p.d.Warn(caption.CodeInvalidSetting, n, "style %q is not defined; %q is used", clip(name), p.t.Styles[k].ID)
		} else {
			p.d.Warn(caption.CodeInvalidSetting, n, "style %q is not defined; the default style is used", clip(name))
		}
	}
	return k, ok
}

// placement turns a numpad alignment and an optional \pos into a
// [caption.Placement]; it returns nil for the default bottom centre.
func (p *parser) placement(align int, pos *[2]float64) *caption.Placement {
	pl := &caption.Placement{Align: columnAlign(align, "")}
	switch {
	case pos != nil:
		// \pos places the alignment point; where it falls on the frame
		// says more than the alignment about where the text is read.
		h := p.info.videoHeight()
		switch y := pos[1]; {
		case y < h/3:
			pl.Area = caption.AreaTop
		case y < 2*h/3:
			pl.Area = caption.AreaMiddle
		}
	case align >= 7:
		pl.Area = caption.AreaTop
	case align >= 4:
		pl.Area = caption.AreaMiddle
	}
	if pl.IsZero() {
		return nil
	}
	return pl
}

// parseTime reads H:MM:SS.cc into milliseconds. It accepts any number of
// hour digits up to six, one or two minute and second digits, and any
// number of fraction digits (rounded to the millisecond), or none.
func parseTime(s string) (int64, bool) {
	hs, rest, ok1 := strings.Cut(s, ":")
	ms, rest, ok2 := strings.Cut(rest, ":")
	ss, frac, hasFrac := strings.Cut(rest, ".")
	if !ok1 || !ok2 || hasFrac && frac == "" {
		return 0, false
	}
	h, okh := digits(hs, 1, 6)
	m, okm := digits(ms, 1, 2)
	sec, oks := digits(ss, 1, 2)
	if !okh || !okm || !oks || m > 59 || sec > 59 {
		return 0, false
	}
	var f int64
	if hasFrac {
		if _, ok := digits(frac, 1, len(frac)); !ok {
			return 0, false
		}
		for i := 0; i < 3; i++ {
			f *= 10
			if i < len(frac) {
				f += int64(frac[i] - '0')
			}
		}
		if len(frac) > 3 && frac[3] >= '5' {
			f++
		}
	}
	return ((h*60+m)*60+sec)*1000 + f, true
}

// digits reads s as a decimal number of min to max digits.
func digits(s string, min, max int) (int64, bool) {
	if len(s) < min || len(s) > max {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// atoi reads an optional integer field; anything else counts as 0, since
// the fields it reads only feed Ext.
func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return v
}
