package ass

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// section is the kind of [section] the reader is in.
type section int

const (
	secNone section = iota // before the first header
	secScriptInfo
	secStylesV4     // [V4 Styles]: SSA columns and legacy alignment numbers
	secStylesV4Plus // [V4+ Styles]: ASS columns and numpad alignment
	secEvents
	secFonts    // uuencoded font files
	secGraphics // uuencoded pictures
	secIgnored  // known but of no use to a caption reader (Aegisub's own)
	secUnknown
)

// binary reports whether the section holds embedded uuencoded data.
func (s section) binary() bool { return s == secFonts || s == secGraphics }

// sectionKind returns the kind of the section called name.
func sectionKind(name string) section {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "script info":
		return secScriptInfo
	case "v4 styles":
		return secStylesV4
	case "v4+ styles", "v4 styles+":
		return secStylesV4Plus
	case "events":
		return secEvents
	case "fonts":
		return secFonts
	case "graphics":
		return secGraphics
	case "aegisub project garbage", "aegisub extradata":
		return secIgnored
	}
	return secUnknown
}

// header switches to the section named by the "[...]" line s.
func (p *parser) header(s string, n int) {
	s = strings.TrimSpace(s)
	name := s[1 : len(s)-1]
	p.sec = sectionKind(name)
	if !p.started {
		p.started = true
		if p.sec != secScriptInfo {
			p.d.Warn(caption.CodeNonStandardSyntax, n, "the script does not start with a [Script Info] section")
		}
	}
	switch p.sec {
	case secUnknown:
		p.d.Warn(caption.CodeMalformedBlock, n, "unknown section %q was skipped", clip(s))
	case secStylesV4, secStylesV4Plus:
		p.styleCols = nil
		if p.sec == secStylesV4 {
			p.info.sawV4Styles = true
		}
	case secEvents:
		p.sawEvents = true
		p.eventCols = nil
	}
}

// isTextHeader reports whether a line inside embedded data is a section
// header. Uuencoded data uses only the characters '!' to '`', which
// include '[' and ']' but neither spaces nor lower-case letters, while
// every section name has one of those.
func isTextHeader(raw string) bool {
	s := strings.TrimSpace(raw)
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c < '!' || c > '`' {
			return true
		}
	}
	return false
}

// scriptInfo holds the [Script Info] values the reader uses.
type scriptInfo struct {
	scriptType  string // as written, e.g. "v4.00+"
	playResX    int
	playResY    int
	wrapStyle   int
	hasWrap     bool
	sawV4Styles bool
}

// infoExt is the JSON form of Track.Ext["ass"].
type infoExt struct {
	PlayResX   int    `json:"playResX,omitempty"`
	PlayResY   int    `json:"playResY,omitempty"`
	ScriptType string `json:"scriptType,omitempty"`
	WrapStyle  *int   `json:"wrapStyle,omitempty"`
}

func (si *scriptInfo) ext() *infoExt {
	e := &infoExt{PlayResX: si.playResX, PlayResY: si.playResY, ScriptType: si.scriptType}
	if si.hasWrap {
		w := si.wrapStyle
		e.WrapStyle = &w
	}
	if *e == (infoExt{}) {
		return nil
	}
	return e
}

// ssa reports whether the script is SSA v4.00 rather than ASS: by its
// ScriptType, or by a [V4 Styles] section when it declares none.
func (si *scriptInfo) ssa() bool {
	switch strings.ToLower(si.scriptType) {
	case "v4.00", "v4":
		return true
	case "":
		return si.sawV4Styles
	}
	return false
}

// videoHeight is the height of the script's coordinate space: PlayResY,
// or what libass derives when it is missing.
func (si *scriptInfo) videoHeight() float64 {
	switch {
	case si.playResY > 0:
		return float64(si.playResY)
	case si.playResX == 1280:
		return 1024
	case si.playResX > 0:
		return float64(si.playResX) * 3 / 4
	}
	return 288
}

// infoLine handles one "Key: value" line of [Script Info].
func (p *parser) infoLine(key, value string, n int) {
	switch key {
	case "scripttype":
		p.info.scriptType = value
		switch strings.ToLower(value) {
		case "v4.00", "v4.00+", "v4", "v4+":
		default:
			p.d.Warn(caption.CodeInvalidSetting, n, "unknown ScriptType %q; read as v4.00+", clip(value))
		}
	case "playresx", "playresy":
		v, err := strconv.Atoi(value)
		if err != nil || v < 0 {
			p.d.Warn(caption.CodeInvalidSetting, n, "%s %q is not a whole number and was ignored", infoKeyName(key), clip(value))
			return
		}
		if key == "playresx" {
			p.info.playResX = v
		} else {
			p.info.playResY = v
		}
	case "wrapstyle":
		v, err := strconv.Atoi(value)
		if err != nil || v < 0 || v > 3 {
			p.d.Warn(caption.CodeInvalidSetting, n, "WrapStyle %q is not 0 to 3 and was ignored", clip(value))
			return
		}
		p.info.wrapStyle, p.info.hasWrap = v, true
	case "language":
		// Some tools write locale names ("en_US") where BCP 47 has hyphens.
		value = strings.ReplaceAll(value, "_", "-")
		if !caption.IsLanguageTag(value) {
			p.d.Warn(caption.CodeInvalidSetting, n, "Language %q is not a BCP 47 tag and was ignored", clip(value))
			return
		}
		p.t.Language = value
	}
}

// infoKeyName spells a lower-case [Script Info] key as scripts write it.
func infoKeyName(key string) string {
	if key == "playresx" {
		return "PlayResX"
	}
	return "PlayResY"
}
