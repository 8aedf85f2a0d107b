package caption

// RegionDefaultLines is the height of a region that gives neither a
// height nor a line count: WebVTT's default of three lines, which a
// WebVTT player also applies to such a region once written.
const RegionDefaultLines = 3

// RegionLineHeight is the height of one line of a WebVTT region in
// percent of the frame: the 6vh the WebVTT rendering rules give a region
// line. [Region.Box] uses it for a region whose height is given in lines.
const RegionLineHeight = 6

// Box returns the area r covers, in percent of the frame: the left and
// top edges and the width and height. An unset Width is 100; an unset
// Height is Lines × [RegionLineHeight], or [RegionDefaultLines] lines
// without Lines either (a box of no height would show nothing); unset
// anchors are 0. The box sits so that its anchor point (AnchorX/Y percent
// of the box) lies on the viewport anchor (ViewportX/Y percent of the
// frame). The box may run past the frame edge.
func (r *Region) Box() (x, y, w, h float64) {
	val := func(p *float64, def float64) float64 {
		if p == nil {
			return def
		}
		return *p
	}
	w = val(r.Width, 100)
	h = val(r.Height, RegionDefaultLines*RegionLineHeight)
	if r.Height == nil && r.Lines != nil {
		h = float64(*r.Lines) * RegionLineHeight
	}
	x = val(r.ViewportX, 0) - val(r.AnchorX, 0)*w/100
	y = val(r.ViewportY, 0) - val(r.AnchorY, 0)*h/100
	return x, y, w, h
}

// RegionsByID indexes t.Regions by id. When an id is defined twice the
// first definition wins, as in every reader's output (ids are unique
// there) and in the rules that judge regions.
func (t *Track) RegionsByID() map[string]*Region {
	m := make(map[string]*Region, len(t.Regions))
	for i := len(t.Regions) - 1; i >= 0; i-- {
		m[t.Regions[i].ID] = &t.Regions[i]
	}
	return m
}
