package ttml

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// leaf is one piece of a paragraph's text: a text node, a br, or a ruby
// parenthesis the reader adds. begin and end are in ms.
type leaf struct {
	e          *elem // the text or br element; for a parenthesis, its span
	reg        *region
	text       string
	br         bool
	begin, end int64
}

// readBody resolves the body's timing and turns each paragraph into cues.
func (r *reader) readBody(body *node) {
	root := r.build(body, nil, kBlock, 0)
	r.clip(root, 0, inf, false)
	r.paragraphs(root)
	if r.openCues > 0 {
		end := caption.FormatClock(r.suppliedEnd(0))
		if r.hasTime {
			r.d.Warn(caption.CodeEndSupplied, r.openLine,
				"%d cue(s) have no end anywhere in the document, so TTML shows them until the document ends; they were given an end at %s, 4 s after its latest time, %s, for the formats that need one",
				r.openCues, end, caption.FormatClock(r.latest))
		} else {
			r.d.Warn(caption.CodeEndSupplied, r.openLine,
				"the document has no times at all, so TTML shows its %d cue(s) from 00:00:00.000 until the document ends; they were given an end at %s for the formats that need one",
				r.openCues, end)
		}
	}
}

func (r *reader) paragraphs(e *elem) {
	for _, c := range e.children {
		if !c.active {
			continue
		}
		if c.kind == kP {
			r.paragraph(c)
			continue
		}
		if c.kind == kBlock {
			r.paragraphs(c)
		}
	}
}

// paragraph collects the leaves of p that a viewer can see, then makes its
// cues.
func (r *reader) paragraph(p *elem) {
	var leaves []leaf
	dropped := false
	// The region is tracked on the way down: regionAbove on every leaf
	// would cost the depth of the tree per leaf.
	preg, pclash := r.regionAbove(p)
	var add func(e *elem, inRuby bool, reg *region, clash bool)
	add = func(e *elem, inRuby bool, reg *region, clash bool) {
		for _, c := range e.children {
			if !c.active {
				continue
			}
			creg, cclash := reg, clash
			if c.region != "" {
				if reg != nil && reg.id != c.region {
					cclash = true
				} else {
					creg = r.regions[c.region]
				}
			}
			switch c.kind {
			case kText, kBr:
				reg := creg
				if cclash || reg == nil && len(r.regions) > 0 {
					dropped = true
					continue
				}
				b, en := toMs(c.begin), toMs(c.end)
				if reg != nil {
					b, en = max(b, toMs(reg.begin)), min(en, toMs(reg.end))
				}
				if b < en {
					leaves = append(leaves, leaf{e: c, reg: reg, text: c.text, br: c.kind == kBr, begin: b, end: en})
				}
			default:
				paren := c.spec.ruby == "text" && inRuby && !hasDelimiter(e)
				if paren {
					leaves = append(leaves, leaf{e: c, reg: creg, text: "(", begin: toMs(c.begin), end: toMs(c.end)})
				}
				add(c, inRuby || c.spec.ruby == "container", creg, cclash)
				if paren {
					leaves = append(leaves, leaf{e: c, reg: creg, text: ")", begin: toMs(c.begin), end: toMs(c.end)})
				}
			}
		}
	}
	add(p, false, preg, pclash)
	switch {
	// An error, not a warning: the author meant this text to be seen and
	// a player will not show it, so the file needs an editor.
	case dropped && len(leaves) == 0:
		r.d.Error(caption.CodeContentNotDisplayed, p.n.line,
			"this paragraph is not in any region of the document (or in two at once), so TTML players do not display it; it was left out")
	case dropped:
		r.d.Error(caption.CodeContentNotDisplayed, p.n.line,
			"part of this paragraph's text is not in any region of the document (or in two at once), so TTML players do not display that part; it was left out")
	}
	made := 0
	for _, group := range byRegion(leaves) {
		made += r.segments(p, group, made)
	}
}

// byRegion splits a paragraph's leaves by the region each is shown in,
// in order of first appearance. A paragraph whose spans name different
// regions is shown in each of them, with only the text that region holds
// (TTML1 §9.3.3), so each region gets cues of its own.
func byRegion(leaves []leaf) [][]leaf {
	var groups [][]leaf
	at := map[*region]int{}
	for _, l := range leaves {
		i, ok := at[l.reg]
		if !ok {
			i = len(groups)
			at[l.reg] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], l)
	}
	return groups
}

// hasDelimiter reports whether a ruby container already has delimiters
// (tts:ruby="delimiter"), in which case no parentheses are added.
func hasDelimiter(e *elem) bool {
	for c := e; c != nil && c.kind == kSpan; c = c.parent {
		if c.spec.ruby != "container" {
			continue
		}
		var walk func(x *elem) bool
		walk = func(x *elem) bool {
			for _, k := range x.children {
				if k.spec.ruby == "delimiter" || walk(k) {
					return true
				}
			}
			return false
		}
		return walk(c)
	}
	return false
}

// regionAbove returns the region e and its ancestors name, and whether
// they name two different ones (TTML then displays e nowhere).
func (r *reader) regionAbove(e *elem) (*region, bool) {
	id := ""
	for a := e; a != nil; a = a.parent {
		if a.region == "" {
			continue
		}
		if id != "" && id != a.region {
			return nil, true
		}
		id = a.region
	}
	return r.regions[id], false
}

// computed returns the style of text under parent at time t (ms), and
// whether it is displayed (no ancestor has tts:display none). Inherited
// properties flow from the initial values through the region into body,
// div, p and span; backgroundColor is not inherited, so only a span's own
// background colours its text.
func (r *reader) computed(parent *elem, reg *region, t int64) (props, bool) {
	var chain []*elem
	for a := parent; a != nil; a = a.parent {
		chain = append(chain, a)
	}
	st := r.initial
	if reg != nil {
		st = st.over(reg.style)
	}
	st.background, st.display, st.ruby = "", "", ""
	for i := len(chain) - 1; i >= 0; i-- {
		a := chain[i]
		sp := a.spec
		for _, s := range a.sets {
			if toMs(s.begin) <= t && t < toMs(s.end) {
				sp = sp.over(s.p)
			}
		}
		if sp.display == "none" {
			return st, false
		}
		if a.kind != kSpan {
			sp.background = ""
		}
		sp.display, sp.ruby = "", ""
		st = st.over(sp)
	}
	return st, true
}

// voice is the speaker named by the nearest ttm:agent on p or above it.
func (r *reader) voice(p *elem) string {
	for a := p; a != nil; a = a.parent {
		if a.agent != "" {
			if name, ok := r.agents[a.agent]; ok {
				return name
			}
			return a.agent
		}
	}
	return ""
}

// placement is where p's cues go: its region (or that of its first text)
// and its text alignment.
func (r *reader) placement(p *elem, first *elem) *caption.Placement {
	reg, _ := r.regionAbove(p)
	if reg == nil && first != nil {
		reg, _ = r.regionAbove(first)
	}
	st, _ := r.computed(p, reg, toMs(p.begin))
	pl := &caption.Placement{Align: st.align}
	if reg != nil {
		pl.Region, pl.Area = reg.id, reg.area
	}
	if pl.IsZero() {
		return nil
	}
	return pl
}

// cueStyle is the one style p references, for [caption.Cue.Style].
func (r *reader) cueStyle(p *elem) string {
	v, _ := p.n.attr(nsTT, "style")
	f := strings.Fields(v)
	if len(f) == 1 {
		if _, ok := r.styles.byID[f[0]]; ok {
			return f[0]
		}
	}
	return ""
}
