package ttml

import (
	"math"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// The writer carries a cue's WebVTT settings (a [caption.Placement] Line in
// percent, Position and Size) as an IMSC1 region of its own: the box a
// WebVTT renderer draws for a horizontal cue, in percent of the root
// container, which is what IMSC1 regions are. The mapping:
//
//   - Size is the box width (auto: 100). As in WebVTT rendering, a box
//     wider than its position and position-align allow is narrowed to the
//     widest that fits, so the region shows what a WebVTT player shows;
//     when both Position and Size were set, that box ran past the frame
//     edge and [Unplaced] reports it.
//   - Position is the anchor its position-align names: the box's left
//     edge for line-left, its right edge for line-right, its middle for
//     center. Auto position-align follows the text alignment (left and
//     start: line-left; right and end: line-right; else center); auto
//     Position is 0, 100 or 50 to match.
//   - A Line in percent is the top of the box for line-align start (the
//     default), its middle for center and its bottom for end. The region
//     runs from the line to the frame edge the text grows towards (for
//     center, equally both ways, as far as the nearer edge allows), and
//     tts:displayAlign before, center or after sets the text on the line.
//   - Without a Line in percent the region keeps the vertical extent and
//     displayAlign of the cue's area region (10% to 90% of the frame).
//
// What this cannot carry is reported by format.UnwrittenCue, see
// [Unplaced]: a line number (WebVTT lines depend on the font), vertical
// text, and values outside the frame, which are clamped to it because an
// IMSC1 region must lie within the root container.

// box is an IMSC1 region: origin and extent in percent of the root
// container, and where the text sits vertically inside it.
type box struct {
	x, y, w, h   float64
	displayAlign string
}

// placed returns the region a cue with placement p is written in, and
// false when p sets no Line in percent, Position or Size: such a cue goes
// in the region of its area.
func placed(p *caption.Placement) (box, bool) {
	percentLine := p != nil && p.Line != nil && p.LineUnit == caption.LineUnitPercent
	if p == nil || !percentLine && p.Position == nil && p.Size == nil {
		return box{}, false
	}
	b := box{y: 10, h: 80, displayAlign: areaAlign(p.Area)}
	align := p.ResolvedPositionAlign()
	pos := 50.0
	switch align {
	case "line-left":
		pos = 0
	case "line-right":
		pos = 100
	}
	if p.Position != nil {
		pos = frameClamp(*p.Position)
	}
	size := 100.0
	if p.Size != nil {
		size = frameClamp(*p.Size)
	}
	switch align {
	case "line-left":
		b.w = min(size, 100-pos)
		b.x = pos
	case "line-right":
		b.w = min(size, pos)
		b.x = pos - b.w
	default:
		b.w = min(size, 2*min(pos, 100-pos))
		b.x = pos - b.w/2
	}
	if percentLine {
		line := frameClamp(*p.Line)
		switch p.LineAlign {
		case "center":
			half := min(line, 100-line)
			b.y, b.h, b.displayAlign = line-half, 2*half, "center"
		case "end":
			b.y, b.h, b.displayAlign = 0, line, "after"
		default:
			b.y, b.h, b.displayAlign = line, 100-line, "before"
		}
	}
	return b, true
}

// Loss is what of a cue's placement a TTML document written by [Write]
// does not carry; see [Unplaced].
type Loss struct {
	// LineNumber: a Line in lines (WebVTT lines depend on the font).
	LineNumber bool
	// Vertical: vertical text.
	Vertical bool
	// OffFrame: a Line, Position or Size outside 0..100 percent, or a
	// Position and Size whose box runs off the frame.
	OffFrame bool
	// Position: a Position inside a region, which TTML has no place for
	// (a paragraph fills its region's width).
	Position bool
	// RegionLines: the region's height was given in lines; it is written
	// as [caption.RegionLineHeight] percent a line, and how many lines
	// that holds depends on the TTML player's font.
	RegionLines bool
	// Scroll: the region rolls up (WebVTT scroll:up).
	Scroll bool
	// RegionMoved: the region runs past the frame edge but fits in it,
	// so it is written moved inside, its size kept.
	RegionMoved bool
	// RegionOffFrame: the region is wider or higher than the frame, so
	// it is written cut to the frame.
	RegionOffFrame bool
}

// Unplaced reports what of placement p a TTML document written by [Write]
// does not carry. r is the region of the track p.Region names, nil when
// there is none. A cue [Write] puts in r (one with no Line, no Size but
// 100 and no vertical text, which make WebVTT ignore a region) loses its
// Position, r's line count and roll-up, and r's place or size where it
// runs past the frame edge: an IMSC1 region must lie within the root
// container, so r is written moved inside the frame, or cut to it when it
// is larger ([fitFrame]). Any other cue loses a line number, vertical text
// and a placement past the frame edge, written clamped likewise.
// Overruns within the precision written, 0.005%, are carried.
func Unplaced(p *caption.Placement, r *caption.Region) Loss {
	var l Loss
	if p == nil {
		return l
	}
	const slack = 0.005
	out := func(v float64) bool { return !(v >= -slack && v <= 100+slack) }
	outp := func(v *float64) bool { return v != nil && out(*v) }
	if inRegion(p, r) {
		x, y, w, h := r.Box()
		l.Position = p.Position != nil
		l.RegionLines = r.Height == nil && r.Lines != nil
		l.Scroll = r.Scroll != ""
		l.RegionOffFrame = w > 100+slack || h > 100+slack
		l.RegionMoved = !l.RegionOffFrame && (out(x) || out(y) || out(x+w) || out(y+h))
		return l
	}
	l.LineNumber = p.Line != nil && p.LineUnit != caption.LineUnitPercent
	l.Vertical = p.Vertical != ""
	l.OffFrame = p.LineUnit == caption.LineUnitPercent && outp(p.Line) || outp(p.Position) || outp(p.Size)
	if p.Position != nil && p.Size != nil && !l.OffFrame {
		pos, size := *p.Position, *p.Size
		switch p.ResolvedPositionAlign() {
		case "line-left":
			l.OffFrame = out(pos + size)
		case "line-right":
			l.OffFrame = out(pos - size)
		default:
			l.OffFrame = out(pos-size/2) || out(pos+size/2)
		}
	}
	return l
}

// frameClamp brings a percentage into the frame; NaN becomes 0.
func frameClamp(v float64) float64 {
	if v != v {
		return 0
	}
	return min(max(v, 0), 100)
}

// areaAlign is the displayAlign of an area's region.
func areaAlign(area string) string {
	switch area {
	case caption.AreaTop:
		return "before"
	case caption.AreaMiddle:
		return "center"
	}
	return "after"
}

// rounded rounds the box to the precision written, 0.01%, so boxes that
// would be written alike share a region. The extent is rounded as the
// distance between the rounded edges, so a box within the frame stays
// within it: 0.005% wide 99.995% would otherwise round to 0.01% and 100%.
func (b box) rounded() box {
	r := func(v float64) float64 { return math.Round(v*100) / 100 }
	x, y := r(b.x), r(b.y)
	return box{x: x, y: y, w: r(r(b.x+b.w) - x), h: r(r(b.y+b.h) - y), displayAlign: b.displayAlign}
}

func (b box) appendRegion(buf []byte, id string) []byte {
	pct := func(buf []byte, v float64) []byte {
		if v == 0 {
			v = 0 // -0 is written as 0
		}
		return append(strconv.AppendFloat(buf, v, 'f', -1, 64), '%')
	}
	buf = append(buf, `      <region xml:id="`...)
	buf = append(buf, id...)
	buf = append(buf, `" tts:origin="`...)
	buf = append(pct(buf, b.x), ' ')
	buf = pct(buf, b.y)
	buf = append(buf, `" tts:extent="`...)
	buf = append(pct(buf, b.w), ' ')
	buf = pct(buf, b.h)
	if b.displayAlign != "" {
		buf = append(buf, `" tts:displayAlign="`...)
		buf = append(buf, b.displayAlign...)
	}
	return append(buf, "\"/>\n"...)
}
