package caption

// Vertical areas a [Placement] can name in every format.
const (
	AreaTop    = "top"
	AreaMiddle = "middle"
	AreaBottom = "bottom"
)

// Placement says where a cue appears, expressed once for all formats.
//
// Area is the coarse position every format can carry (SRT and ASS {\an},
// TTML regions, WebVTT line); the remaining fields are the WebVTT cue
// settings, which TTML regions also map onto. A nil pointer means "auto".
type Placement struct {
	// Area is top, middle or bottom; "" means the format's default (bottom).
	Area string `json:"area,omitempty"`
	// Align is the text alignment: start, center, end, left or right.
	Align string `json:"align,omitempty"`
	// Line is the WebVTT line: a line number when LineUnit is "lines", a
	// percentage when it is "percent".
	Line      *float64 `json:"line,omitempty"`
	LineUnit  string   `json:"lineUnit,omitempty"`
	LineAlign string   `json:"lineAlign,omitempty"`
	// Position is the indent from the left edge (or top, when vertical) in
	// percent of the frame.
	Position      *float64 `json:"position,omitempty"`
	PositionAlign string   `json:"positionAlign,omitempty"`
	// Size is the width (or height, when vertical) of the cue box in percent.
	Size *float64 `json:"size,omitempty"`
	// Vertical is "rl" or "lr" for vertical text, "" for horizontal.
	Vertical string `json:"vertical,omitempty"`
	// Region names an entry of [Track.Regions].
	Region string `json:"region,omitempty"`
}

// Line units of [Placement.LineUnit].
const (
	LineUnitLines   = "lines"
	LineUnitPercent = "percent"
)

// IsZero reports whether p says nothing beyond the defaults.
func (p *Placement) IsZero() bool { return p == nil || *p == Placement{} }

// ResolvedPositionAlign is the cue box's position alignment with
// WebVTT's "auto" resolved from the text alignment, for left-to-right
// text: left and start give line-left, right and end give line-right,
// anything else center.
func (p *Placement) ResolvedPositionAlign() string {
	switch p.PositionAlign {
	case "line-left", "line-right", "center":
		return p.PositionAlign
	}
	switch p.Align {
	case "left", "start":
		return "line-left"
	case "right", "end":
		return "line-right"
	}
	return "center"
}
