package ass

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// textState is the styling of a run of text that the IR keeps.
type textState struct {
	italic, bold, underline bool
	color                   colour
}

// span returns the IR span for text in state s. Opaque white is every
// output format's default colour, so it makes no colour span.
func (s textState) span() caption.Span {
	sp := caption.Span{Italic: s.italic, Bold: s.bold, Underline: s.underline}
	if s.color != (colour{rgb: whiteRGB}) {
		sp.Color = s.color.css()
	}
	return sp
}

// defaultState is the styling of text whose style is unknown.
func defaultState() textState { return textState{color: colour{rgb: whiteRGB}} }

// style reads a Style line into [caption.Style] and records the attributes
// override tags start from. A later style of the same name replaces an
// earlier one, as libass looks styles up from the end.
func (p *parser) style(value string, n int) {
	sec := p.sec
	if sec != secStylesV4 && sec != secStylesV4Plus {
		sec = secStylesV4Plus
		if p.info.ssa() {
			sec = secStylesV4
		}
		if !p.warnedStyleOutside {
			p.warnedStyleOutside = true
			p.d.Warn(caption.CodeNonStandardSyntax, n, "Style lines appear outside a styles section; they were read as %s", sectionTitle(sec))
		}
	}
	var outside []string
	have := &p.styleCols
	if p.sec != sec {
		have = &outside
	}
	cols := p.colsFor(sec, have, n)
	fields := strings.Split(value, ",")
	if len(fields) != len(cols) {
		p.d.Warn(caption.CodeInvalidSetting, n, "the Style line has %d fields where its Format has %d", len(fields), len(cols))
	}
	st := caption.Style{}
	attrs := defaultState()
	align := 2
	for i, col := range cols {
		if i >= len(fields) {
			break
		}
		f := strings.TrimSpace(fields[i])
		switch col {
		case "name":
			st.ID = styleName(f)
		case "fontname":
			st.FontFamily = f
		case "fontsize":
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v <= 0 || v > 1e6 {
				p.d.Warn(caption.CodeInvalidSetting, n, "Fontsize %q is not a positive number and was ignored", clip(f))
				continue
			}
			// Sizes are in script pixels: the PlayResY coordinate space.
			st.FontSize = strconv.FormatFloat(v, 'f', -1, 64) + "px"
		case "primarycolour", "primarycolor":
			v, ok := parseColor(f)
			if !ok {
				p.d.Warn(caption.CodeInvalidSetting, n, "PrimaryColour %q is not a colour and was ignored", clip(f))
				continue
			}
			attrs.color = fromABGR(v)
			if sec == secStylesV4 {
				// SSA colours are plain BGR; transparency came from AlphaLevel,
				// whose meaning renderers disagree on, so SSA text is opaque.
				attrs.color.alpha = 0
			}
			st.Color = attrs.color.css()
		case "bold":
			v, ok := p.styleInt(f, "Bold", n)
			attrs.bold = ok && (v == -1 || v == 1 || v >= 700)
		case "italic":
			v, ok := p.styleInt(f, "Italic", n)
			attrs.italic = ok && v != 0
		case "underline":
			v, ok := p.styleInt(f, "Underline", n)
			attrs.underline = ok && v != 0
		case "alignment":
			v, ok := p.styleInt(f, "Alignment", n)
			if !ok {
				continue
			}
			if sec == secStylesV4 {
				v = legacyToNumpad(v)
			}
			if v < 1 || v > 9 {
				p.d.Warn(caption.CodeInvalidSetting, n, "Alignment %q is out of range; bottom centre is assumed", clip(f))
				continue
			}
			align = v
		}
	}
	if st.ID == "" {
		p.d.Warn(caption.CodeInvalidSetting, n, "a Style line without a name was skipped")
		return
	}
	st.Italic, st.Bold, st.Underline = attrs.italic, attrs.bold, attrs.underline
	st.Align = columnAlign(align, "center")
	if k, dup := p.styleIndex[st.ID]; dup {
		p.d.Warn(caption.CodeInvalidSetting, n, "style %q is defined again; the later definition is used", clip(st.ID))
		p.t.Styles[k], p.styleAttrs[k], p.styleAlign[k] = st, attrs, align
		return
	}
	p.styleIndex[st.ID] = len(p.t.Styles)
	if _, ok := p.styleFold[strings.ToLower(st.ID)]; !ok {
		p.styleFold[strings.ToLower(st.ID)] = len(p.t.Styles)
	}
	p.t.Styles = append(p.t.Styles, st)
	p.styleAttrs = append(p.styleAttrs, attrs)
	p.styleAlign = append(p.styleAlign, align)
}

// styleInt reads an integer style field, warning when it is not one.
func (p *parser) styleInt(f, name string, n int) (int, bool) {
	v, err := strconv.Atoi(f)
	if err != nil {
		p.d.Warn(caption.CodeInvalidSetting, n, "%s %q is not a whole number and was ignored", name, clip(f))
		return 0, false
	}
	return v, true
}

// styleName normalises a style name as VSFilter and libass do: spaces
// around it and leading asterisks do not count.
func styleName(s string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "*"))
}

// lookupStyle returns the index of the style called name: an exact match,
// else a case-insensitive one. It reports false when there is none.
func (p *parser) lookupStyle(name string) (int, bool) {
	if k, ok := p.styleIndex[name]; ok {
		return k, true
	}
	k, ok := p.styleFold[strings.ToLower(name)]
	return k, ok
}

// legacyToNumpad converts SSA alignment (1-3 bottom, +4 top, +8 middle)
// to the numpad numbers ASS uses; it returns 0 for a value that is neither.
func legacyToNumpad(v int) int {
	if v < 1 || v > 11 || v&3 == 0 {
		return 0
	}
	col := v & 3
	switch {
	case v&4 != 0:
		return col + 6
	case v&8 != 0:
		return col + 3
	}
	return col
}

// columnAlign names the horizontal alignment of numpad alignment a; the
// centre column gets center.
func columnAlign(a int, center string) string {
	switch a % 3 {
	case 1:
		return "left"
	case 0:
		return "right"
	}
	return center
}

func sectionTitle(s section) string {
	if s == secStylesV4 {
		return "[V4 Styles]"
	}
	return "[V4+ Styles]"
}
