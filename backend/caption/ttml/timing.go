package ttml

import (
	"math"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// kind is what a content element is for timing and text.
type kind uint8

const (
	kBlock kind = iota // body, div
	kP
	kSpan
	kBr
	kText
)

// elem is a content element (or text node) with its resolved timing.
// begin and end are absolute seconds; end is +Inf when indefinite. After
// [reader.clip] they are clipped to the parent's interval.
type elem struct {
	n        *node
	parent   *elem
	kind     kind
	seq      bool
	begin    float64
	end      float64
	spec     props // referenced then inline styles
	sets     []setStep
	region   string
	lang     string
	preserve bool
	agent    string
	text     string
	children []*elem
	active   bool
	// endSet says the end comes from e's own end or dur, not from its
	// children or its parent: only then is a parent that ends sooner
	// cutting short what the author asked for.
	endSet bool
	// hasText says whether e or an element under it holds more than
	// white space.
	hasText bool
}

// setStep is a <set> animation: p applies during [begin, end).
type setStep struct {
	begin, end float64
	p          props
}

// explicitTimes reads begin, end and dur of n; a bad value is reported and
// treated as absent.
func (r *reader) explicitTimes(n *node) (begin, end, dur float64, hasBegin, hasEnd, hasDur bool) {
	get := func(name string) (float64, bool) {
		v, ok := n.attr(nsTT, name)
		if !ok {
			return 0, false
		}
		s, err := r.tp.parseTime(v)
		if err != nil {
			r.d.Warn(caption.CodeInvalidTimestamp, n.line, "%s=%q is not a valid TTML time and was ignored", name, v)
			return 0, false
		}
		r.hasTime = true
		return s, true
	}
	begin, hasBegin = get("begin")
	end, hasEnd = get("end")
	dur, hasDur = get("dur")
	return
}

// resolveEnd applies TTML's rules for end and dur: with both, the earlier
// wins; end is relative to the same sync base as begin.
func resolveEnd(syncBase, begin, end, dur float64, hasEnd, hasDur bool, implicit float64) float64 {
	switch {
	case hasEnd && hasDur:
		return min(begin+dur, syncBase+end)
	case hasEnd:
		return syncBase + end
	case hasDur:
		return begin + dur
	}
	return implicit
}

// build turns the content node n into an elem, resolving begin and the
// desired end in SMIL par/seq fashion: children of a par start relative to
// their parent, children of a seq after their previous sibling; an element
// without end or dur lasts as long as its children (par: the latest, seq:
// the last), and text lasts indefinitely in a par and not at all in a seq.
func (r *reader) build(n *node, parent *elem, k kind, syncBase float64) *elem {
	e := &elem{n: n, parent: parent, kind: k}
	if parent != nil {
		e.lang, e.preserve, e.region = parent.lang, parent.preserve, ""
	} else {
		e.lang = r.lang
	}
	if v, ok := n.attr(nsXML, "lang"); ok {
		e.lang = strings.TrimSpace(v)
	}
	if v, ok := n.attr(nsXML, "space"); ok {
		e.preserve = strings.TrimSpace(v) == "preserve"
	}
	if v, ok := n.attr(nsTT, "timeContainer"); ok {
		e.seq = strings.TrimSpace(v) == "seq"
	}
	if v, ok := n.attr(nsMetadata, "agent"); ok {
		if f := strings.Fields(v); len(f) > 0 {
			e.agent = f[0]
		}
	}
	if v, ok := n.attr(nsTT, "region"); ok {
		v = strings.TrimSpace(v)
		if _, known := r.regions[v]; known {
			e.region = v
		} else {
			r.d.Warn(caption.CodeInvalidSetting, n.line, "unknown region %q was ignored", v)
		}
	}
	if _, ok := n.attr(nsSMPTE, "backgroundImage"); ok {
		r.unsupportedImage(n.line)
	}
	e.spec = r.styles.refProps(n, &r.d).over(inlineProps(n, &r.d))
	b, en, dur, _, hasE, hasD := r.explicitTimes(n)
	e.begin = syncBase + b
	implicit := e.begin
	if k == kBr {
		implicit = r.leafEnd(parent, e.begin)
	}
	prevEnd := e.begin
	for _, c := range n.children {
		child := r.buildChild(c, e, prevEnd)
		if child == nil {
			continue
		}
		e.children = append(e.children, child)
		e.hasText = e.hasText || child.hasText
		if e.seq {
			prevEnd, implicit = child.end, child.end
		} else {
			implicit = max(implicit, child.end)
		}
	}
	e.end = resolveEnd(syncBase, e.begin, en, dur, hasE, hasD, implicit)
	e.endSet = hasE || hasD
	if e.end < e.begin && e.hasText {
		// An error, as every reader reports a cue it leaves out: the
		// element is never active, so its text is lost to the output
		// and to every player, and only an editor can say when it was
		// meant to show. With no text, nothing is lost.
		r.d.Error(caption.CodeEndBeforeStart, n.line, "<%s> ends (end=%q) before it begins, so no player shows it; its text was left out",
			n.local, attrOr(n, "end"))
	}
	return e
}

// leafEnd is the implicit end of text or a br: indefinite in a par
// parent, zero duration in a seq parent.
func (r *reader) leafEnd(parent *elem, begin float64) float64 {
	if parent != nil && parent.seq {
		return begin
	}
	return inf
}

// buildChild builds one child of e, or returns nil for what has no place
// on the timeline (metadata, foreign elements, text outside paragraphs).
func (r *reader) buildChild(c *node, e *elem, prevEnd float64) *elem {
	syncBase := e.begin
	if e.seq {
		syncBase = prevEnd
	}
	if c.isText() {
		if e.kind != kP && e.kind != kSpan {
			return nil
		}
		return &elem{n: c, parent: e, kind: kText, text: c.text, begin: syncBase,
			end: r.leafEnd(e, syncBase), lang: e.lang, preserve: e.preserve, hasText: strings.TrimSpace(c.text) != ""}
	}
	if elemFamily(c.space) != nsTT {
		return nil
	}
	switch c.local {
	case "div", "body":
		if e.kind != kBlock {
			return nil
		}
		return r.build(c, e, kBlock, syncBase)
	case "p":
		if e.kind != kBlock {
			return r.build(c, e, kSpan, syncBase) // a stray p inside text reads as a span
		}
		return r.build(c, e, kP, syncBase)
	case "span":
		if e.kind == kBlock {
			return nil // TTML allows no text outside a p
		}
		return r.build(c, e, kSpan, syncBase)
	case "br":
		if e.kind == kBlock {
			return nil
		}
		return r.build(c, e, kBr, syncBase)
	case "set":
		r.addSet(c, e)
		return nil
	case "image":
		r.unsupportedImage(c.line)
	}
	return nil
}

// addSet records a <set> on its parent: its style applies during its own
// interval, which is relative to the parent's begin.
func (r *reader) addSet(c *node, e *elem) {
	b, en, dur, _, hasE, hasD := r.explicitTimes(c)
	begin := e.begin + b
	end := resolveEnd(e.begin, begin, en, dur, hasE, hasD, inf)
	e.sets = append(e.sets, setStep{begin: begin, end: end, p: inlineProps(c, &r.d)})
}

func attrOr(n *node, name string) string {
	v, _ := n.attr(nsTT, name)
	return v
}

// clip limits e to its parent's interval [pb, pe), marks what is ever
// active and records the latest finite time of the document.
//
// Time containment makes a player show nothing of e outside its parent's
// interval, so text that would show is reported where the parent cuts it:
// an element that loses all of its time, such as a <p begin="3s"> in a
// <div end="2s"> (times count from the parent's begin), is left out with a
// content_not_displayed error, as every reader reports content it drops;
// one whose own end or dur runs past its parent's end is shown until
// then, with a content_not_displayed warning (the cue is what a player
// shows, so there is nothing for a writer to repair). An element whose end is implicit (its children's,
// or indefinite text) ends with its parent by design and is not reported.
// cut says an ancestor's cut was reported, which stands for its
// descendants' shortened ends.
func (r *reader) clip(e *elem, pb, pe float64, cut bool) {
	begin, end := e.begin, e.end
	e.begin = max(e.begin, pb)
	e.end = min(e.end, pe)
	e.active = e.begin < e.end
	if !e.active {
		switch {
		case !e.hasText:
		case math.IsInf(begin, 1):
			// In a seq, an element begins when the one before it ends;
			// after one shown indefinitely, that is never.
			r.d.Error(caption.CodeContentNotDisplayed, e.n.line,
				"<%s> follows, in a seq container, an element with no end, which is shown indefinitely, so it never begins and no player shows it; its text was left out",
				e.n.local)
		case begin < end:
			r.d.Error(caption.CodeContentNotDisplayed, e.n.line,
				"<%s> is timed %s, outside its parent's time, %s (%s), so no player shows it; its text was left out",
				e.n.local, interval(begin, end), interval(pb, pe), syncBase(e))
		}
		return
	}
	if e.endSet && e.end < end && e.hasText && !cut {
		r.d.Warn(caption.CodeContentNotDisplayed, e.n.line,
			"<%s> is timed %s, past its parent's end at %s (%s); players show it only until then, and so it was read",
			e.n.local, interval(begin, end), caption.FormatClock(toMs(pe)), syncBase(e))
		cut = true
	}
	r.note(e.begin)
	r.note(e.end)
	for i := range e.sets {
		s := &e.sets[i]
		s.begin, s.end = max(s.begin, e.begin), min(s.end, e.end)
		if s.begin < s.end {
			r.note(s.begin)
			r.note(s.end)
		}
	}
	for _, c := range e.children {
		r.clip(c, e.begin, e.end, cut)
	}
}

// syncBase says, for a message, what e's times count from.
func syncBase(e *elem) string {
	if e.parent != nil && e.parent.seq {
		return "in a seq container its times count from the end of the element before it"
	}
	return "its times count from its parent's begin"
}

// interval describes [begin, end) in seconds for a message.
func interval(begin, end float64) string {
	to := "indefinitely"
	if ms := toMs(end); ms != openEnd {
		to = "to " + caption.FormatClock(ms)
	}
	return "from " + caption.FormatClock(toMs(begin)) + " " + to
}

func (r *reader) note(s float64) {
	if ms := toMs(s); ms != openEnd && ms > r.latest {
		r.latest = ms
	}
}

// regionTimes resolves a region's own begin, end and dur against the
// document start.
func (r *reader) regionTimes(n *node) (float64, float64) {
	b, en, dur, _, hasE, hasD := r.explicitTimes(n)
	end := resolveEnd(0, b, en, dur, hasE, hasD, inf)
	if hasE || hasD {
		r.note(b)
		r.note(end)
	}
	return b, end
}
