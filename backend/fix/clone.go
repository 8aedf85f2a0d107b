package fix

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
)

// cloneTrack deep-copies t so that no edit, and no later change by the
// caller to the result, can reach the input. Spans of all cues share one
// backing array (each cue's slice capped at its own length), so a track
// costs a handful of allocations whatever its size.
func cloneTrack(t *caption.Track) *caption.Track {
	out := *t
	if t.Source != nil {
		s := *t.Source
		out.Source = &s
	}
	out.Styles = slices.Clone(t.Styles)
	if t.Regions != nil {
		out.Regions = make([]caption.Region, len(t.Regions))
		for i, r := range t.Regions {
			out.Regions[i] = cloneRegion(r)
		}
	}
	out.Ext = cloneExt(t.Ext)
	if t.Cues != nil { // nil stays nil: a copy must compare equal
		// Room for the pieces of a few splits, which layout puts in place.
		out.Cues = append(make([]caption.Cue, 0, len(t.Cues)+headroom(len(t.Cues))), t.Cues...)
	}
	nspans := 0
	for i := range t.Cues {
		nspans += len(t.Cues[i].Spans)
	}
	spans := make([]caption.Span, 0, nspans)
	for i := range t.Cues {
		c := &out.Cues[i]
		if c.Spans != nil {
			k := len(spans)
			spans = append(spans, c.Spans...)
			c.Spans = spans[k:len(spans):len(spans)]
		}
		c.Placement = clonePlacement(c.Placement)
		c.Ext = cloneExt(c.Ext)
	}
	return &out
}

// headroom is the room a copy of n cues keeps for the pieces of splits:
// one in 32, which covers the splits of most files without a second array.
func headroom(n int) int { return n / 32 }

// cloneCue deep-copies the parts of c a split piece must not share.
func cloneCue(c *caption.Cue) caption.Cue {
	out := *c
	out.Spans = nil
	out.Placement = clonePlacement(c.Placement)
	out.Ext = cloneExt(c.Ext)
	return out
}

func clonePlacement(p *caption.Placement) *caption.Placement {
	if p == nil {
		return nil
	}
	q := *p
	q.Line = cloneFloat(p.Line)
	q.Position = cloneFloat(p.Position)
	q.Size = cloneFloat(p.Size)
	return &q
}

func cloneRegion(r caption.Region) caption.Region {
	r.Width = cloneFloat(r.Width)
	r.Height = cloneFloat(r.Height)
	if r.Lines != nil {
		n := *r.Lines
		r.Lines = &n
	}
	r.AnchorX = cloneFloat(r.AnchorX)
	r.AnchorY = cloneFloat(r.AnchorY)
	r.ViewportX = cloneFloat(r.ViewportX)
	r.ViewportY = cloneFloat(r.ViewportY)
	return r
}

func cloneFloat(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneExt(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := maps.Clone(m)
	for k, v := range out {
		out[k] = slices.Clone(v)
	}
	return out
}
