package fix

import (
	"sort"

	"github.com/captionqa/captionqa/backend/caption"
)

// remapSpans moves spans from the source text's code points to those of
// the text rendered from ws (see [render]), which may be only some of the
// source's words (one piece of a split). A span is clipped to the words it
// covers, so one that crosses a split point is cut into both pieces; a span
// left covering nothing, or only dropped whitespace or a dropped dialogue
// dash, is dropped. The result is a new slice: spans may be shared with
// the input track.
func remapSpans(spans []caption.Span, ws []word) []caption.Span {
	var out []caption.Span
	for _, sp := range spans {
		a, b := mapStart(ws, sp.Start), mapEnd(ws, sp.End)
		if b <= a {
			continue
		}
		sp.Start, sp.End = a, b
		out = append(out, sp)
	}
	return out
}

// mapStart maps a span start: a point between words moves to the start of
// the next word.
func mapStart(ws []word, off int) int {
	k := sort.Search(len(ws), func(k int) bool { return ws[k].r1 > off })
	if k == len(ws) {
		if k == 0 {
			return 0
		}
		w := ws[k-1]
		return w.n0 + w.r1 - w.r0
	}
	w := ws[k]
	if off <= w.r0 {
		return w.n0
	}
	return w.n0 + off - w.r0
}

// mapEnd maps a span end: a point between words moves to the end of the
// previous word.
func mapEnd(ws []word, off int) int {
	k := sort.Search(len(ws), func(k int) bool { return ws[k].r0 >= off })
	if k == 0 {
		return 0
	}
	w := ws[k-1]
	if off >= w.r1 {
		return w.n0 + w.r1 - w.r0
	}
	return w.n0 + off - w.r0
}
