package vtt

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// maxClassLen caps the class list a span collects from nested tags, so
// that deeply nested classed tags stay linear.
const maxClassLen = 256

// openTag is an element on the stack of the cue text parsing rules, with
// the style its text gets, worked out when it was opened so that each
// text token costs O(1) whatever the depth.
type openTag struct {
	name  string
	style caption.Span
	inRT  bool
}

// run is a piece of cue text with its style.
type run struct {
	text  string
	style caption.Span
}

// cueText is what the cue text parsing rules give for one payload.
type cueText struct {
	text  string
	spans []caption.Span
	voice string
	// keepRaw is set when the markup holds something spans cannot express
	// (ruby, timestamp tags), so the payload must be kept for a round trip.
	keepRaw bool
	// problem describes the first markup problem and its byte offset.
	problem    string
	problemPos int
	// reading is the first ruby reading (<rt> text), which Text leaves
	// out.
	reading string
}

// textParser runs the WebVTT cue text parsing rules; it is reused from cue
// to cue to keep its buffers.
type textParser struct {
	z     tokenizer
	stack []openTag
	runs  []run
	b     caption.TextBuilder
	// ruby is set once a <ruby> opens: its <rt> text is not in Text, so
	// the payload must be kept.
	ruby bool
}

// parse turns a cue payload into plain text and spans.
func (tp *textParser) parse(payload string) cueText {
	if strings.IndexByte(payload, '<') < 0 && strings.IndexByte(payload, '&') < 0 {
		return cueText{text: strings.TrimRight(payload, "\n")}
	}
	var out cueText
	tp.z = tokenizer{s: payload, classes: tp.z.classes[:0]}
	tp.stack, tp.runs, tp.ruby = tp.stack[:0], tp.runs[:0], false
	problem := func(pos int, format string, args ...any) {
		if out.problem == "" {
			out.problem, out.problemPos = fmt.Sprintf(format, args...), pos
		}
	}
	for {
		pos := tp.z.pos
		tok := tp.z.next()
		if tok.unknownRef != "" {
			problem(pos, "unknown character reference %q was kept as text", tok.unknownRef)
		}
		switch tok.kind {
		case tokEOF:
			out.keepRaw = out.keepRaw || tp.ruby
			return tp.finish(out)
		case tokText:
			if n := len(tp.stack); n > 0 && tp.stack[n-1].inRT {
				if out.reading == "" {
					out.reading = tok.value
				}
				continue
			}
			var style caption.Span
			if n := len(tp.stack); n > 0 {
				style = tp.stack[n-1].style
			}
			tp.runs = append(tp.runs, run{tok.value, style})
		case tokStart:
			if !tp.open(tok) {
				problem(pos, "unknown tag <%s> was ignored", clip(tok.value))
			}
		case tokEnd:
			tp.close(tok.value)
		case tokTimestamp:
			if _, end, ok := collectTimestamp(tok.value, 0); ok && end == len(tok.value) {
				out.keepRaw = true
			} else {
				problem(pos, "timestamp tag <%s> is not a WebVTT timestamp and was ignored", clip(tok.value))
			}
		}
	}
}

// open handles a start tag; it reports false for a tag the spec ignores.
func (tp *textParser) open(tok token) bool {
	var parent openTag
	if n := len(tp.stack); n > 0 {
		parent = tp.stack[n-1]
	}
	st := parent.style
	switch tok.value {
	case "c", "ruby":
	case "i":
		st.Italic = true
	case "b":
		st.Bold = true
	case "u":
		st.Underline = true
	case "v":
		st.Voice = tok.annotation
	case "lang":
		st.Lang = tok.annotation
	case "rt":
		// <rt> only counts inside <ruby>; elsewhere it is ignored, not
		// an error.
		if parent.name != "ruby" {
			return true
		}
	default:
		return false
	}
	st.Class = addClasses(st.Class, tok.classes)
	if tok.value == "ruby" {
		tp.ruby = true
	}
	tp.stack = append(tp.stack, openTag{name: tok.value, style: st, inRT: parent.inRT || tok.value == "rt"})
	return true
}

// close handles an end tag: it closes the current element when the names
// match, and </ruby> also closes an open <rt>. Anything else is ignored.
func (tp *textParser) close(name string) {
	n := len(tp.stack)
	if n == 0 {
		return
	}
	switch top := tp.stack[n-1].name; {
	case top == name:
		tp.stack = tp.stack[:n-1]
	case name == "ruby" && top == "rt":
		tp.stack = tp.stack[:n-2]
	}
}

// finish builds the text. With exactly one speaker who speaks all the
// text, the voice belongs to the cue and the spans carry none.
func (tp *textParser) finish(out cueText) cueText {
	voice, voices, unvoiced := "", 0, false
	for _, r := range tp.runs {
		// Whitespace says nothing about who speaks; counting it would give
		// a voice to a cue whose text is empty once trailing breaks go.
		if strings.TrimSpace(r.text) == "" {
			continue
		}
		switch {
		case r.style.Voice == "":
			unvoiced = true
		case voices == 0 || r.style.Voice != voice && voices == 1:
			voice = r.style.Voice
			voices++
		}
	}
	if voices == 1 {
		out.voice = voice
	}
	wholeCue := voices == 1 && !unvoiced
	tp.b.Reset()
	for _, r := range tp.runs {
		if wholeCue {
			r.style.Voice = ""
		}
		tp.b.Write(r.text, r.style)
	}
	out.text, out.spans = tp.b.Build()
	return out
}

// addClasses appends the class names not already in list.
func addClasses(list string, classes []string) string {
	for _, c := range classes {
		if c == "" || len(list)+len(c) >= maxClassLen || hasWord(list, c) {
			continue
		}
		if list == "" {
			list = c
		} else {
			list += " " + c
		}
	}
	return list
}

func hasWord(list, w string) bool {
	for list != "" {
		var f string
		f, list, _ = strings.Cut(list, " ")
		if f == w {
			return true
		}
	}
	return false
}
