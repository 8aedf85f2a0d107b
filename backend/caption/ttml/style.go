package ttml

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// tri is an optional boolean: unset, false or true.
type tri uint8

const (
	unset tri = iota
	no
	yes
)

// props is a set of specified TTML style properties; empty strings and
// unset mean "not specified", so that merging lets later sources win.
type props struct {
	italic, bold, underline tri
	color, background       string
	align                   string
	display                 string // "none" or "auto"
	ruby                    string
	fontFamily, fontSize    string
	origin, extent          string
	displayAlign            string
}

// over returns p with every property q specifies replaced by q's value.
func (p props) over(q props) props {
	for _, f := range []struct {
		dst *tri
		src tri
	}{{&p.italic, q.italic}, {&p.bold, q.bold}, {&p.underline, q.underline}} {
		if f.src != unset {
			*f.dst = f.src
		}
	}
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&p.color, q.color}, {&p.background, q.background}, {&p.align, q.align},
		{&p.display, q.display}, {&p.ruby, q.ruby}, {&p.fontFamily, q.fontFamily},
		{&p.fontSize, q.fontSize}, {&p.origin, q.origin}, {&p.extent, q.extent},
		{&p.displayAlign, q.displayAlign},
	} {
		if f.src != "" {
			*f.dst = f.src
		}
	}
	return p
}

// inlineProps reads the tts: attributes of n. Values CaptionQA cannot read
// are reported as invalid_setting and ignored.
func inlineProps(n *node, d *caption.Diagnostics) props {
	var p props
	for _, a := range n.attrs {
		if classify(a.Name.Space) != nsStyling {
			continue
		}
		v := strings.TrimSpace(a.Value)
		ok := true
		switch a.Name.Local {
		case "fontStyle":
			p.italic = boolOf(v == "italic" || v == "oblique")
			ok = v == "italic" || v == "oblique" || v == "normal" || v == "reverseOblique"
		case "fontWeight":
			p.bold = boolOf(v == "bold")
			ok = v == "bold" || v == "normal"
		case "textDecoration":
			for _, tok := range strings.Fields(v) {
				switch tok {
				case "underline":
					p.underline = yes
				case "noUnderline", "none":
					p.underline = no
				}
			}
		case "color":
			p.color, ok = parseColor(v)
		case "backgroundColor":
			p.background, ok = parseColor(v)
		case "textAlign":
			switch v {
			case "left", "center", "right", "start", "end":
				p.align = v
			case "justify":
				p.align = "start"
			default:
				ok = false
			}
		case "display":
			p.display = v
		case "ruby":
			p.ruby = v
		case "fontFamily":
			p.fontFamily = v
		case "fontSize":
			p.fontSize = v
		case "origin":
			p.origin = v
		case "extent":
			p.extent = v
		case "displayAlign":
			p.displayAlign = v
		}
		if !ok {
			d.Warn(caption.CodeInvalidSetting, n.line, "tts:%s=%q is not a valid value and was ignored", a.Name.Local, a.Value)
		}
	}
	return p
}

func boolOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// styleSheet holds the style elements of head/styling, each flattened with
// the styles it chains to.
type styleSheet struct {
	byID  map[string]props
	order []string
}

// readStyling reads <styling>: <style> elements (with chained style
// references resolved, cycles cut) and <initial> elements, which become
// the base every content element inherits from.
func readStyling(styling *node, d *caption.Diagnostics) (styleSheet, props) {
	sh := styleSheet{byID: map[string]props{}}
	var initial props
	if styling == nil {
		return sh, initial
	}
	raw := map[string]*node{}
	for _, c := range styling.children {
		switch {
		case c.is("style"):
			id := c.id()
			if id == "" {
				d.Warn(caption.CodeInvalidSetting, c.line, "a <style> without xml:id was ignored")
				continue
			}
			if _, dup := raw[id]; dup {
				d.Warn(caption.CodeInvalidSetting, c.line, "style %q is defined twice; the first definition is used", id)
				continue
			}
			raw[id] = c
			sh.order = append(sh.order, id)
		case c.is("initial"):
			initial = initial.over(inlineProps(c, d))
		}
	}
	state := map[string]int{} // 1 resolving, 2 done
	var resolve func(id string) props
	resolve = func(id string) props {
		switch state[id] {
		case 1:
			d.Warn(caption.CodeInvalidSetting, raw[id].line, "style %q refers back to itself; the loop was cut", id)
			return props{}
		case 2:
			return sh.byID[id]
		}
		state[id] = 1
		n := raw[id]
		var p props
		if refs, ok := n.attr(nsTT, "style"); ok {
			for _, r := range strings.Fields(refs) {
				if _, known := raw[r]; !known {
					d.Warn(caption.CodeInvalidSetting, n.line, "style %q refers to unknown style %q", id, r)
					continue
				}
				p = p.over(resolve(r))
			}
		}
		p = p.over(inlineProps(n, d))
		sh.byID[id], state[id] = p, 2
		return p
	}
	for _, id := range sh.order {
		resolve(id)
	}
	return sh, initial
}

// refProps merges the styles n references with its style attribute, in
// order, later references winning.
func (sh styleSheet) refProps(n *node, d *caption.Diagnostics) props {
	var p props
	refs, ok := n.attr(nsTT, "style")
	if !ok {
		return p
	}
	for _, r := range strings.Fields(refs) {
		q, known := sh.byID[r]
		if !known {
			d.Warn(caption.CodeInvalidSetting, n.line, "unknown style %q was ignored", r)
			continue
		}
		p = p.over(q)
	}
	return p
}

// trackStyles lists the style elements for [caption.Track.Styles].
func (sh styleSheet) trackStyles() []caption.Style {
	var out []caption.Style
	for _, id := range sh.order {
		p := sh.byID[id]
		out = append(out, caption.Style{
			ID: id, Italic: p.italic == yes, Bold: p.bold == yes, Underline: p.underline == yes,
			Color: p.color, Background: p.background, FontFamily: p.fontFamily,
			FontSize: p.fontSize, Align: p.align,
		})
	}
	return out
}

// span turns computed properties into a caption.Span style.
func (p props) span() caption.Span {
	return caption.Span{
		Italic: p.italic == yes, Bold: p.bold == yes, Underline: p.underline == yes,
		Color: p.color, Background: p.background,
	}
}
