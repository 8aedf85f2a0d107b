package scc

import (
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Options change how [Encode] writes.
type Options struct {
	// NonDropFrame writes non-drop-frame timecodes (HH:MM:SS:FF) instead
	// of drop-frame ones (HH:MM:SS;FF), the default.
	NonDropFrame bool
}

// Write writes t as SCC with the default options: 608-safe pop-on
// captions with drop-frame timecodes (see the package documentation). It
// makes the changes [Changes] lists. The output is deterministic. The
// error is only ever the writer's.
func Write(w io.Writer, t *caption.Track) error {
	_, err := Encode(w, t, Options{})
	return err
}

// Encode writes t as SCC and returns every change it made to fit 608, as
// [Changes] does. The error is only ever the writer's.
func Encode(w io.Writer, t *caption.Track, o Options) ([]caption.Diagnostic, error) {
	p := makePlan(t)
	if _, err := w.Write(p.file(!o.NonDropFrame)); err != nil {
		return p.changes, fmt.Errorf("scc: write: %w", err)
	}
	return p.changes, nil
}

// Changes lists every change [Write] makes to t to fit 608, one
// diagnostic per change and cue (CueIndex and Line name the cue): as
// warnings, a line longer than 32 columns re-wrapped (line_too_long), a
// cue of more than 4 rows split into several captions (too_many_lines),
// characters 608 lacks replaced and styling it cannot show moved or left
// out (unsupported_feature), a cue shown late, or ending elsewhere, for
// want of frames to load its caption (gap_too_small), and a cue shown
// later because the cues it overlaps take the 4 rows of a caption
// (overlapping_cues); as infos (unsupported_feature), blank and invisible
// characters written as a space or left out, cues that overlap and share
// captions, and two cues that show the same one after the other. An info
// for the whole file says that times are rounded to frames. Cues [Shows]
// rejects are not written and not listed here; format.Delivers reports
// them.
func Changes(t *caption.Track) []caption.Diagnostic { return makePlan(t).changes }

// Delivered returns what a file [Write] makes of t reads back to: the
// captions it writes, with their text (their rows top to bottom) and
// their times in milliseconds (each exactly a frame's start), in time
// order; cues that overlap share captions. Spans and placement are left
// out; SourceLine is that of the cue that came on screen last. A caption
// that replaces one that shows the same in the same place changes
// nothing on screen: the two read back as one cue.
func Delivered(t *caption.Track) *caption.Track {
	p := makePlan(t)
	out := &caption.Track{Version: caption.Version, FrameRate: FrameRate, Cues: make([]caption.Cue, 0, len(p.caps))}
	for i := range p.caps {
		c := &p.caps[i]
		if i > 0 && p.caps[i-1].showsSame(c) {
			out.Cues[len(out.Cues)-1].EndMs = frameToMs(c.end)
			continue
		}
		lines := make([]string, len(c.lines))
		for k := range c.lines {
			lines[k] = c.lines[k].r.text()
		}
		src := p.units[c.units[len(c.units)-1]].src
		out.Cues = append(out.Cues, caption.Cue{StartMs: frameToMs(c.eoc), EndMs: frameToMs(c.end),
			Text: strings.Join(lines, "\n"), SourceLine: t.Cues[src].SourceLine})
	}
	return out
}

// Shows reports whether [Write] writes cue c: it lasts a frame or more
// once its times are rounded to frames, it ends within the 99 hours SCC
// timecodes count, and its text shows a character in 608 (a character
// 608 lacks shows as a substitute).
func Shows(c *caption.Cue) bool {
	if msToFrame(c.EndMs) <= msToFrame(c.StartMs) || c.EndMs > maxMs {
		return false
	}
	var buf [4]glyph
	for _, r := range c.Text {
		if r == '\n' {
			continue
		}
		if g, _ := textOf(r, buf[:0]); len(g) > 0 && g[0].r != ' ' {
			return true
		}
	}
	return false
}

// RewritesText reports whether [Write] writes cue c's text so that it
// reads back different: re-wrapped, split, with characters replaced, or
// with spaces of other widths and invisible characters written as spaces
// or left out. Spaces at the ends of lines and empty lines, which no
// viewer sees and no SCC row can hold, do not count.
func RewritesText(c *caption.Cue) bool {
	if !Shows(c) {
		return false
	}
	l := layoutCue(c)
	return l.rewrapped > 0 || len(l.substituted) > 0 || len(l.blanked) > 0 || len(l.rows) > maxRows
}

// file returns the SCC file of the plan: the header, then a line for each
// run of pairs on consecutive frames, and a new line where a caption
// starts loading, where it is displayed and where one is erased. The
// pairs come in frame order:
// a caption's loading pairs, among which the erase of the caption before
// may fall, then its end-of-caption code.
func (p *plan) file(drop bool) []byte {
	n := 0
	for i := range p.caps {
		n += len(p.caps[i].load) + 4
	}
	buf := make([]byte, 0, len(header)+2+5*n+48*len(p.caps)) // 16 bytes a line, 3 lines a caption
	buf = append(buf, header+"\n"...)
	next := int64(-1) // the frame after the last pair written
	emit := func(frame int64, pair [2]byte, start bool) {
		if start || frame != next {
			if next >= 0 {
				buf = append(buf, '\n')
			}
			buf = append(buf, '\n')
			buf = appendTimecode(buf, frame, drop)
			buf = append(buf, '\t')
		} else {
			buf = append(buf, ' ')
		}
		buf = hex.AppendEncode(buf, pair[:])
		next = frame + 1
	}
	eoc := [2]byte{withParity(hiMisc), withParity(cmdEOC)}
	edm := [2]byte{withParity(hiMisc), withParity(cmdEDM)}
	erase := int64(-1) // the frame of an erase still to write
	eraseBefore := func(frame int64) {
		if erase >= 0 && erase < frame {
			emit(erase, edm, true)
			emit(erase+1, edm, false)
			erase = -1
		}
	}
	for i := range p.caps {
		c := &p.caps[i]
		for k, f := range c.loadAt {
			eraseBefore(f)
			emit(f, c.load[k], k == 0)
		}
		eraseBefore(c.eoc)
		// The end-of-caption code starts a line of its own, so that a
		// reader that times a line's codes by its timecode (ffmpeg does)
		// shows the caption on its frame too.
		emit(c.eoc, eoc, true)
		emit(c.eoc+1, eoc, false)
		if c.edm {
			erase = c.end
		}
	}
	eraseBefore(math.MaxInt64)
	if next >= 0 {
		buf = append(buf, '\n')
	}
	return buf
}

// HasColour reports whether 608 has the IR colour hex ("#rrggbb" or with
// an opaque alpha): white, green, blue, cyan, red, yellow or magenta.
func HasColour(hex string) bool {
	_, ok := colourOf(hex)
	return ok
}

// showsSame reports whether caption n, displayed when c ends, shows what
// c shows, where c shows it.
func (c *capt) showsSame(n *capt) bool {
	if c.edm || c.end != n.eoc || len(c.lines) != len(n.lines) {
		return false
	}
	for k := range c.lines {
		a, b := &c.lines[k], &n.lines[k]
		if a.at != b.at || a.col != b.col || !slices.Equal(a.r.glyphs, b.r.glyphs) || !slices.Equal(a.r.styles, b.r.styles) {
			return false
		}
	}
	return true
}
