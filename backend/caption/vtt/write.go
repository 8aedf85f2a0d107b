package vtt

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
)

// Write writes t as WebVTT. The output is deterministic (the same track
// gives the same bytes) and always parses back to the same cue times and
// text: markup is rebuilt from the spans, and characters that would end a
// cue or open a tag are escaped. A cue without visible text is left out
// ([Shows]). The whole file is built in one buffer and written with a
// single call.
func Write(w io.Writer, t *caption.Track) error {
	wr := writer{w: w}
	buf := wr.appendTrack(make([]byte, 0, sizeHint(t, flushSize+4096)), t)
	wr.flush(buf)
	if wr.err != nil {
		return fmt.Errorf("vtt: write: %w", wr.err)
	}
	return nil
}

// Shows reports whether [Write] writes cue c: its text has a character
// that is not white space. A cue without one shows nothing, and readers
// differ on it, so, as the other caption writers do, Write leaves it out
// and the caller reports it (format.Delivers).
func Shows(c *caption.Cue) bool {
	return strings.TrimFunc(c.Text, unicode.IsSpace) != ""
}

// flushSize is how much output the writer gathers before passing it to
// the io.Writer: large enough for few calls, small enough to stay in cache
// instead of holding a whole 4 MiB file.
const flushSize = 64 << 10

// writer holds the output and the scratch state reused from cue to cue.
type writer struct {
	w   io.Writer
	err error

	regions map[string]string // IR region id -> id as written
	tp      textParser
	cueText cueTextWriter
}

// sizeHint estimates the size of t as WebVTT, or returns limit when that
// is less; it stops looking at cues there.
func sizeHint(t *caption.Track, limit int) int {
	n := 64
	for i := range t.Cues {
		if n += len(t.Cues[i].ID) + len(t.Cues[i].Text) + 48; n >= limit {
			return limit
		}
	}
	return n
}

func (wr *writer) appendTrack(buf []byte, t *caption.Track) []byte {
	buf = append(buf, "WEBVTT\n"...)
	if lang := strings.TrimSpace(oneLine(t.Language)); lang != "" {
		buf = append(buf, "Language: "...)
		buf = append(buf, lang...)
		buf = append(buf, '\n')
	}
	for i := range t.Regions {
		buf = wr.appendRegion(buf, &t.Regions[i])
	}
	var ext trackExt
	if raw, ok := t.Ext[Format]; ok && json.Unmarshal(raw, &ext) == nil {
		for _, css := range ext.Styles {
			buf = append(buf, "\nSTYLE\n"...)
			buf = append(buf, cleanBlock(css)...)
			buf = append(buf, '\n')
		}
	}
	for i := range t.Cues {
		if !Shows(&t.Cues[i]) {
			continue
		}
		buf = append(buf, '\n')
		buf = wr.appendCue(buf, &t.Cues[i])
		if len(buf) >= flushSize {
			buf = wr.flush(buf)
		}
	}
	return buf
}

// flush writes buf out and returns it emptied; after an error it only
// discards, and Write reports the first error.
func (wr *writer) flush(buf []byte) []byte {
	if wr.err == nil && len(buf) > 0 {
		_, wr.err = wr.w.Write(buf)
	}
	return buf[:0]
}

// appendRegion writes a REGION block; a region without an id is skipped,
// as no cue could name it.
func (wr *writer) appendRegion(buf []byte, r *caption.Region) []byte {
	id := settingToken(r.ID)
	if id == "" {
		return buf
	}
	if wr.regions == nil {
		wr.regions = map[string]string{}
	}
	wr.regions[r.ID] = id
	buf = append(buf, "\nREGION\nid:"...)
	buf = append(buf, id...)
	if r.Width != nil && isFinite(*r.Width) {
		buf = appendPercent(append(buf, " width:"...), *r.Width)
	}
	if r.Lines != nil && *r.Lines >= 0 {
		buf = strconv.AppendInt(append(buf, " lines:"...), int64(*r.Lines), 10)
	}
	buf = appendAnchor(buf, " regionanchor:", r.AnchorX, r.AnchorY)
	buf = appendAnchor(buf, " viewportanchor:", r.ViewportX, r.ViewportY)
	if r.Scroll == "up" {
		buf = append(buf, " scroll:up"...)
	}
	return append(buf, '\n')
}

func appendAnchor(buf []byte, name string, x, y *float64) []byte {
	if x == nil || y == nil || !isFinite(*x) || !isFinite(*y) {
		return buf
	}
	buf = appendPercent(append(buf, name...), *x)
	return appendPercent(append(buf, ','), *y)
}

func (wr *writer) appendCue(buf []byte, c *caption.Cue) []byte {
	if id := oneLine(c.ID); id != "" {
		buf = append(buf, id...)
		buf = append(buf, '\n')
	}
	buf = caption.AppendClock(buf, c.StartMs, 2, '.')
	buf = append(buf, " --> "...)
	buf = caption.AppendClock(buf, c.EndMs, 2, '.')
	if c.Placement != nil {
		buf = wr.appendSettings(buf, c.Placement)
	}
	buf = append(buf, '\n')
	buf = wr.appendText(buf, c)
	return append(buf, '\n')
}

// appendSettings writes the cue settings a Placement holds. A placement
// with only an Area gets the line that area stands for: line 0 for the top
// and a centred line at 50% for the middle.
func (wr *writer) appendSettings(buf []byte, p *caption.Placement) []byte {
	if p.Vertical == "rl" || p.Vertical == "lr" {
		buf = append(append(buf, " vertical:"...), p.Vertical...)
	}
	switch {
	case p.Line != nil && isFinite(*p.Line):
		buf = append(buf, " line:"...)
		if p.LineUnit == caption.LineUnitPercent {
			buf = appendPercent(buf, *p.Line)
		} else {
			buf = appendNumber(buf, *p.Line)
		}
		if p.LineAlign == "start" || p.LineAlign == "center" || p.LineAlign == "end" {
			buf = append(append(buf, ','), p.LineAlign...)
		}
	case p.Area == caption.AreaTop:
		buf = append(buf, " line:0"...)
	case p.Area == caption.AreaMiddle:
		buf = append(buf, " line:50%,center"...)
	}
	if p.Position != nil && isFinite(*p.Position) {
		buf = appendPercent(append(buf, " position:"...), *p.Position)
		if p.PositionAlign == "line-left" || p.PositionAlign == "center" || p.PositionAlign == "line-right" {
			buf = append(append(buf, ','), p.PositionAlign...)
		}
	}
	if p.Size != nil && isFinite(*p.Size) {
		buf = appendPercent(append(buf, " size:"...), *p.Size)
	}
	switch p.Align {
	case "start", "center", "end", "left", "right":
		buf = append(append(buf, " align:"...), p.Align...)
	}
	if id, ok := wr.regions[p.Region]; ok && p.Region != "" {
		buf = append(append(buf, " region:"...), id...)
	}
	return buf
}

// appendPercent writes v, clamped to 0..100, as a WebVTT percentage.
func appendPercent(buf []byte, v float64) []byte {
	return append(appendNumber(buf, math.Min(math.Max(v, 0), 100)), '%')
}

// appendNumber writes v in plain decimal notation: WebVTT has no exponent
// syntax, and -0 is written as 0.
func appendNumber(buf []byte, v float64) []byte {
	if v == 0 {
		return append(buf, '0')
	}
	return strconv.AppendFloat(buf, v, 'f', -1, 64)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// oneLine makes s safe as a cue identifier or header value: line breaks
// become spaces and "-->", which would turn the line into a timing line,
// becomes "--_".
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\r' || c == '\n' || c == '>' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	}
	if strings.Contains(s, "-->") {
		s = strings.ReplaceAll(s, "-->", "--_")
	}
	return s
}

// settingToken makes s safe as a setting value (a region id): whitespace
// becomes "_" and "-->" becomes "--_".
func settingToken(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && isSpace(byte(r)) {
			return '_'
		}
		return r
	}, s)
	return oneLine(s)
}

// cleanBlock makes a STYLE block's CSS safe to write: a blank line would
// end the block and "-->" would start a cue, so blank lines are dropped
// and "-->" becomes "-- >" (CSS ignores the difference outside strings).
func cleanBlock(css string) string {
	css = strings.NewReplacer("\r\n", "\n", "\r", "\n", "-->", "-- >").Replace(css)
	lines := strings.Split(css, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}
