package ttml

import (
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// region is one layout/region element.
type region struct {
	id         string
	style      props // the region's own style, inherited by its content
	begin, end float64
	ir         caption.Region
	area       string
}

// frame is what region lengths are relative to: the root container in
// pixels (tts:extent on tt) and the cell grid (ttp:cellResolution).
type frame struct {
	pxW, pxH     float64
	cols, rows   float64
	hasPxExtents bool
}

func readFrame(tt *node) frame {
	f := frame{cols: 32, rows: 15}
	if v, ok := tt.attr(nsStyling, "extent"); ok {
		if w, h, ok := pair(v); ok && strings.HasSuffix(w, "px") && strings.HasSuffix(h, "px") {
			pw, e1 := strconv.ParseFloat(strings.TrimSuffix(w, "px"), 64)
			ph, e2 := strconv.ParseFloat(strings.TrimSuffix(h, "px"), 64)
			if e1 == nil && e2 == nil && pw > 0 && ph > 0 {
				f.pxW, f.pxH, f.hasPxExtents = pw, ph, true
			}
		}
	}
	if v, ok := tt.attr(nsParameter, "cellResolution"); ok {
		if c, r, ok := pair(v); ok {
			cv, e1 := strconv.ParseFloat(c, 64)
			rv, e2 := strconv.ParseFloat(r, 64)
			if e1 == nil && e2 == nil && cv > 0 && rv > 0 {
				f.cols, f.rows = cv, rv
			}
		}
	}
	return f
}

func pair(v string) (string, string, bool) {
	f := strings.Fields(v)
	if len(f) != 2 {
		return "", "", false
	}
	return f[0], f[1], true
}

// percent converts one length to percent of the frame along an axis of
// pixel size px and cell count cells.
func (f frame) percent(s string, px, cells float64) (float64, bool) {
	unit := ""
	for _, u := range []string{"%", "px", "c", "rw", "rh"} {
		if strings.HasSuffix(s, u) {
			unit = u
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, unit), 64)
	if err != nil || v != v {
		return 0, false
	}
	switch unit {
	case "%", "rw", "rh":
		return v, true
	case "px":
		if !f.hasPxExtents {
			return 0, false
		}
		return v / px * 100, true
	case "c":
		return v / cells * 100, true
	}
	return 0, false
}

func (f frame) point(v string) (x, y float64, ok bool) {
	a, b, ok := pair(v)
	if !ok {
		return 0, 0, false
	}
	x, ok1 := f.percent(a, f.pxW, f.cols)
	y, ok2 := f.percent(b, f.pxH, f.rows)
	return x, y, ok1 && ok2
}

// readRegions reads layout/region elements.
func (r *reader) readRegions(layout *node) {
	if layout == nil {
		return
	}
	for _, c := range layout.children {
		if !c.is("region") {
			continue
		}
		id := c.id()
		if id == "" {
			r.d.Warn(caption.CodeInvalidSetting, c.line, "a <region> without xml:id was ignored")
			continue
		}
		if _, dup := r.regions[id]; dup {
			r.d.Warn(caption.CodeInvalidSetting, c.line, "region %q is defined twice; the first definition is used", id)
			continue
		}
		p := r.styles.refProps(c, &r.d).over(inlineProps(c, &r.d))
		for _, s := range c.children {
			if s.is("style") {
				// Nested styles only fill what the region leaves unset.
				p = inlineProps(s, &r.d).over(p)
			}
		}
		if _, ok := c.attr(nsSMPTE, "backgroundImage"); ok {
			r.unsupportedImage(c.line)
		}
		reg := &region{id: id, style: p, begin: 0, end: inf}
		reg.begin, reg.end = r.regionTimes(c)
		reg.ir, reg.area = r.frame.irRegion(id, p, c.line, &r.d)
		r.regions[id] = reg
		r.regionOrder = append(r.regionOrder, id)
	}
}

// irRegion maps origin, extent and displayAlign to a caption.Region and
// picks the area where its text block sits (see the package comment).
func (f frame) irRegion(id string, p props, line int, d *caption.Diagnostics) (caption.Region, string) {
	x, y, w, h := 0.0, 0.0, 100.0, 100.0
	if p.origin != "" {
		if ox, oy, ok := f.point(p.origin); ok {
			x, y = ox, oy
		} else {
			d.Warn(caption.CodeInvalidSetting, line, "region %q: tts:origin=%q could not be read; 0%% 0%% was used", id, p.origin)
		}
	}
	if p.extent != "" && p.extent != "auto" {
		if ew, eh, ok := f.point(p.extent); ok {
			w, h = ew, eh
		} else {
			d.Warn(caption.CodeInvalidSetting, line, "region %q: tts:extent=%q could not be read; 100%% 100%% was used", id, p.extent)
		}
	}
	da := p.displayAlign
	switch da {
	case "", "before", "center", "after":
	case "justify":
		da = "before"
	default:
		d.Warn(caption.CodeInvalidSetting, line, "region %q: tts:displayAlign=%q is not valid; before was used", id, da)
		da = ""
	}
	zero := 0.0
	reg := caption.Region{ID: id, Width: &w, Height: &h, AnchorX: &zero, AnchorY: &zero, ViewportX: &x, ViewportY: &y, DisplayAlign: da}
	pos := y // before: the text starts at the region's top edge
	switch da {
	case "center":
		pos = y + h/2
	case "after":
		pos = y + h
	}
	area := caption.AreaMiddle
	switch {
	case pos < 100.0/3:
		area = caption.AreaTop
	case pos > 200.0/3:
		area = caption.AreaBottom
	}
	return reg, area
}
