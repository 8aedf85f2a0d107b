package ttml

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// The writer puts a cue in a region of the track ([caption.Region], read
// from a TTML <region> or a WebVTT REGION block) when the cue names one
// and WebVTT would lay it out there ([inRegion]). Each such region used
// by a shown cue is written once, as an IMSC1 region in percent of the
// root container:
//
//   - tts:origin and tts:extent are the region's box ([caption.Region.Box]):
//     a WebVTT region's anchors become an origin, viewport anchor minus
//     region anchor times size, and a height given in lines becomes
//     [caption.RegionLineHeight] (6) percent a line. How many lines that
//     box holds depends on the TTML player's font, so the line count is
//     reported as left out ([Unplaced]), as is roll-up (scroll:up), which
//     TTML has no syntax for;
//   - an IMSC1 region must lie within the root container, so a box past
//     the frame edge is moved inside it, keeping its size, as the nearest
//     box a player will show; only a box larger than the frame is cut
//     to it. Both are reported ([Unplaced]);
//   - tts:displayAlign is the region's own; a WebVTT region (height in
//     lines, no displayAlign) gets "after", as WebVTT stacks a region's
//     lines from its bottom;
//   - the region keeps its id when that is an XML name no other id of
//     the document uses (the writer's styles, its bottom, middle and top
//     regions, its agents); otherwise it gets one made as for cue ids.
//
// The boxes of cues placed by their own WebVTT settings (placement.go)
// follow, named p1, p2, … (or p1-2 and so on, should a track region hold
// that id).

// inRegion reports whether a cue with placement p goes in the track's
// region r: r exists, has an id, and the cue has no Line, no Size other than 100 and
// no vertical text, which make WebVTT ignore a cue's region.
func inRegion(p *caption.Placement, r *caption.Region) bool {
	return r != nil && r.ID != "" && p != nil && p.Line == nil && (p.Size == nil || *p.Size == 100) && p.Vertical == ""
}

// regionBox is the IMSC1 region written for the track's region r.
func regionBox(r *caption.Region) box {
	x, y, w, h := r.Box()
	var b box
	b.x, b.w = fitFrame(x, w)
	b.y, b.h = fitFrame(y, h)
	switch r.DisplayAlign {
	case "before", "center", "after":
		b.displayAlign = r.DisplayAlign
	case "":
		if r.Height == nil && r.Lines != nil {
			b.displayAlign = "after"
		}
	}
	return b.rounded()
}

// fitFrame moves the span of the frame from o, size long, inside 0..100
// percent: a span that fits keeps its size and is shifted to the nearest
// edge it crossed; a longer one is cut to the whole frame. Clamping each
// edge instead would shrink a box just past the edge, down to nothing
// when it lies wholly outside.
func fitFrame(o, size float64) (float64, float64) {
	size = frameClamp(size)
	return min(frameClamp(o), 100-size), size
}

// layout is what Write adds to <layout> after its three area regions: the
// track's regions that shown cues use, in track order, then the distinct
// boxes of placed cues in order of first use, so the same track always
// gives the same document. used holds every xml:id given out, for the
// cue ids that follow.
type layout struct {
	boxes  []box
	ids    []string
	track  map[string]string // IR region id -> xml:id
	placed map[box]string
	byID   map[string]*caption.Region
}

// newLayout gives each region its xml:id, marking it in used.
func newLayout(t *caption.Track, used map[string]bool) layout {
	l := layout{track: map[string]string{}, placed: map[box]string{}}
	if len(t.Regions) > 0 {
		l.byID = t.RegionsByID()
	}
	var inUse map[string]bool
	for i := range t.Cues {
		c := &t.Cues[i]
		if !Shows(c) || c.Placement == nil {
			continue
		}
		if r := l.byID[c.Placement.Region]; inRegion(c.Placement, r) {
			if inUse == nil {
				inUse = map[string]bool{}
			}
			inUse[r.ID] = true
		}
	}
	for i := range t.Regions {
		r := &t.Regions[i]
		if !inUse[r.ID] || l.byID[r.ID] != r {
			continue
		}
		id := xmlID(r.ID, used)
		l.track[r.ID] = id
		l.boxes = append(l.boxes, regionBox(r))
		l.ids = append(l.ids, id)
	}
	for i := range t.Cues {
		c := &t.Cues[i]
		if !Shows(c) || c.Placement != nil && inRegion(c.Placement, l.byID[c.Placement.Region]) {
			continue
		}
		if b, ok := placed(c.Placement); ok {
			b = b.rounded()
			if l.placed[b] == "" {
				id := xmlID("p"+strconv.Itoa(len(l.placed)+1), used)
				l.placed[b] = id
				l.boxes = append(l.boxes, b)
				l.ids = append(l.ids, id)
			}
		}
	}
	return l
}

// region is the xml:id of the region a cue with placement p is written
// in.
func (l *layout) region(p *caption.Placement) string {
	if p == nil {
		return "bottom"
	}
	if id, ok := l.track[p.Region]; ok && inRegion(p, l.byID[p.Region]) {
		return id
	}
	if b, ok := placed(p); ok {
		return l.placed[b.rounded()]
	}
	if p.Area == caption.AreaTop || p.Area == caption.AreaMiddle {
		return p.Area
	}
	return "bottom"
}
