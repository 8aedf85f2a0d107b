package scc

import "github.com/captionqa/captionqa/backend/caption"

// cueBuilder turns what the decoder displays into cues, as an editor
// expects them:
//
//   - Pop-on and paint-on captions are screen states: a cue starts when
//     the display changes to show something and ends at its next change.
//     Paint-on text that arrives over several frames is taken as one
//     change at its first frame, up to the end of its SCC line.
//   - Roll-up captions are lines: each new line of the bottom row is a
//     cue from its first character until the next line starts, it is
//     erased, or it scrolls out of the window. A line is never repeated in
//     the cues after it, and cues never overlap.
//
// At most one cue is open at a time.
type cueBuilder struct {
	tb   caption.TextBuilder
	cues []caption.Cue

	open   bool
	cur    shown
	start  int64
	line   int
	roll   bool // the open cue is a roll-up line
	rollID int  // which roll-up line it is
}

// show makes s the screen state from frame on (line is its source line):
// the open cue ends, unless it is a screen state that shows the same, and
// a cue for s starts when s shows anything.
func (b *cueBuilder) show(frame int64, line int, s shown) {
	if b.open && !b.roll && b.cur.same(&s) {
		return
	}
	b.close(frame)
	if s.text != "" {
		b.open, b.roll, b.cur, b.start, b.line = true, false, s, frame, line
	}
}

// showLine makes s the text of roll-up line id from frame on: the text of
// the open cue when it is that line, otherwise the open cue ends and a cue
// for the line starts, once the line shows anything.
func (b *cueBuilder) showLine(frame int64, line int, s shown, id int) {
	if b.open && b.roll && b.rollID == id {
		b.cur = s
		return
	}
	if s.text == "" {
		return
	}
	b.close(frame)
	b.open, b.roll, b.rollID, b.cur, b.start, b.line = true, true, id, s, frame, line
}

// close ends the open cue at frame.
func (b *cueBuilder) close(frame int64) {
	if !b.open {
		return
	}
	b.open = false
	if b.cur.text == "" || frame <= b.start {
		return
	}
	b.cues = append(b.cues, caption.Cue{
		StartMs: frameToMs(b.start), EndMs: frameToMs(frame),
		Text: b.cur.text, Spans: b.cur.spans, Placement: b.cur.placement,
		SourceLine: b.line,
	})
}
