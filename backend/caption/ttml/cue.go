package ttml

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// run is one leaf as shown during a segment.
type run struct {
	text     string
	br       bool
	preserve bool
	style    caption.Span
}

// segment is what p shows during [start, end).
type segment struct {
	start, end int64
	active     []int
	text       string
	spans      []caption.Span
}

// maxSegmentWork bounds segments times leaves for one paragraph.
const maxSegmentWork = 4_000_000

// openExt marks a cue whose end the document leaves indefinite, so that
// its EndMs is the one [reader.suppliedEnd] gives; it is read-only.
var openExt = json.RawMessage(`{"openEnd":true}`)

// openHoldMs is how long after the document's last time content that TTML
// presents indefinitely is given, for the formats that need an end
// (docs/cli.md, TTML timing): as long as the SCC reader gives a caption
// that is never erased.
const openHoldMs = 4000

// segments splits p at every time its visible content changes (a span or
// br starting or ending, a <set> switching) and makes one cue per distinct
// interval that shows text. Neighbouring intervals showing the same
// content with the same styles are joined. made counts the cues p already
// has (from its leaves in another region); segments returns how many it
// adds.
func (r *reader) segments(p *elem, leaves []leaf, made int) int {
	times := make([]int64, 0, 2*len(leaves)+2)
	animated := false
	for _, l := range leaves {
		times = append(times, l.begin, l.end)
		for a := l.e.parent; a != nil && !animated; a = a.parent {
			animated = len(a.sets) > 0
		}
	}
	if animated {
		for a := p; a != nil; a = a.parent {
			times = r.setTimes(a, times)
		}
		for _, l := range leaves {
			for a := l.e.parent; a != nil && a != p; a = a.parent {
				times = r.setTimes(a, times)
			}
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	work := len(times) * len(leaves)
	if animated {
		for a := leaves[len(leaves)-1].e; a != nil; a = a.parent {
			work *= 2 // styles are recomputed up the tree for every interval
			if work > maxSegmentWork {
				break
			}
		}
	}
	if work > maxSegmentWork {
		// A paragraph with tens of thousands of separately timed spans
		// would take quadratic time and text; it is shown as one cue.
		r.d.Warn(caption.CodeUnsupportedFeature, p.n.line,
			"this paragraph has too many separately timed parts (%d); it was read as one cue over its whole time", len(leaves))
		for i := range leaves {
			leaves[i].begin, leaves[i].end = toMs(p.begin), toMs(p.end)
		}
		times, animated = []int64{toMs(p.begin), toMs(p.end)}, false
	}
	regions := make([]*region, len(leaves))
	static := make([]caption.Span, len(leaves))
	visible := make([]bool, len(leaves))
	type key struct {
		parent *elem
		reg    *region
	}
	type val struct {
		st props
		ok bool
	}
	// Leaves under one parent share its style; computing it once per
	// parent keeps deep documents linear.
	cache := map[key]val{}
	for i, l := range leaves {
		regions[i] = l.reg
		if !animated {
			k := key{l.e.parent, regions[i]}
			v, hit := cache[k]
			if !hit {
				v.st, v.ok = r.computed(l.e.parent, regions[i], 0)
				cache[k] = v
			}
			static[i], visible[i] = r.spanOf(v.st, l.e), v.ok
		}
	}
	var segs []segment
	var runs []run
	var tb caption.TextBuilder
	for i := 0; i+1 < len(times); i++ {
		t0, t1 := times[i], times[i+1]
		runs = runs[:0]
		var act []int
		for j, l := range leaves {
			if l.begin > t0 || l.end < t1 {
				continue
			}
			st, ok := static[j], visible[j]
			if animated {
				var pr props
				pr, ok = r.computed(l.e.parent, regions[j], t0)
				st = r.spanOf(pr, l.e)
			}
			if !ok {
				continue
			}
			act = append(act, j)
			runs = append(runs, run{text: l.text, br: l.br, preserve: l.e.preserve, style: st})
		}
		text, spans := assemble(&tb, runs)
		if strings.TrimSpace(text) == "" {
			continue
		}
		if k := len(segs) - 1; k >= 0 && segs[k].end == t0 && slices.Equal(segs[k].active, act) &&
			segs[k].text == text && slices.Equal(segs[k].spans, spans) {
			segs[k].end = t1
			continue
		}
		segs = append(segs, segment{start: t0, end: t1, active: act, text: text, spans: spans})
	}
	if len(segs) == 0 {
		return 0
	}
	id := p.n.id()
	pl := r.placement(p, leaves[0].e)
	voice, style := r.voice(p), r.cueStyle(p)
	for i, s := range segs {
		c := caption.Cue{ID: id, StartMs: s.start, EndMs: s.end, Text: s.text, Spans: s.spans,
			Voice: voice, Style: style, Placement: pl, SourceLine: p.n.line}
		if n := made + i; n > 0 && id != "" {
			// One paragraph shown in several intervals or regions gives
			// several cues; the suffix keeps their ids unique.
			c.ID = id + "." + strconv.Itoa(n+1)
		}
		if c.EndMs == openEnd {
			c.EndMs = r.suppliedEnd(c.StartMs)
			c.Ext = map[string]json.RawMessage{Format: openExt}
			if r.openCues == 0 {
				r.openLine = c.SourceLine
			}
			r.openCues++
		}
		r.cues = append(r.cues, c)
	}
	return len(segs)
}

// suppliedEnd is the end of a cue that starts at start and that the
// document presents indefinitely: [openHoldMs] after the latest time the
// document names, the same for every such cue, since TTML shows them all
// until the document ends. Every cue starts at a time the document names,
// at or before r.latest; max keeps the end after the start regardless.
func (r *reader) suppliedEnd(start int64) int64 {
	return max(r.latest, start) + openHoldMs
}

// setTimes adds the times at which a's <set> animations switch.
func (r *reader) setTimes(a *elem, times []int64) []int64 {
	for _, s := range a.sets {
		if s.begin < s.end {
			times = append(times, toMs(s.begin), toMs(s.end))
		}
	}
	return times
}

// spanOf is the caption.Span style of text element e with computed style st.
func (r *reader) spanOf(st props, e *elem) caption.Span {
	sp := st.span()
	if e.lang != r.lang {
		sp.Lang = e.lang
	}
	return sp
}

// assemble applies TTML whitespace handling (xml:space default: runs of
// white space collapse to one space, which is dropped at the start and end
// of a line) and builds the text and spans.
func assemble(tb *caption.TextBuilder, runs []run) (string, []caption.Span) {
	// First pass: collapse, and drop a space that follows white space.
	out := runs[:0]
	for _, rn := range runs {
		if !rn.br && !rn.preserve {
			s := collapse(rn.text)
			if strings.HasPrefix(s, " ") && (len(out) == 0 || endsInSpace(out[len(out)-1])) {
				s = s[1:]
			}
			if s == "" {
				continue
			}
			rn.text = s
		}
		out = append(out, rn)
	}
	// Second pass: drop a space before a line break or the end.
	for i := range out {
		rn := &out[i]
		if rn.br || rn.preserve || !strings.HasSuffix(rn.text, " ") {
			continue
		}
		if i == len(out)-1 || out[i+1].br || strings.HasPrefix(out[i+1].text, "\n") || strings.HasPrefix(out[i+1].text, "\r") {
			rn.text = rn.text[:len(rn.text)-1]
		}
	}
	tb.Reset()
	for _, rn := range out {
		if rn.br {
			tb.Write("\n", rn.style)
			continue
		}
		s := rn.text
		if rn.preserve && strings.ContainsRune(s, '\r') {
			s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
		}
		tb.Write(s, rn.style)
	}
	return tb.Build()
}

func endsInSpace(rn run) bool {
	if rn.br {
		return true
	}
	if rn.text == "" {
		return false
	}
	switch rn.text[len(rn.text)-1] {
	case ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// collapse turns every run of XML white space into one space.
func collapse(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			space = true
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteByte(s[i])
	}
	if space {
		sb.WriteByte(' ')
	}
	return sb.String()
}
