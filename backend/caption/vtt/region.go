package vtt

import (
	"math"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// rawRegion is a WebVTT region object as the spec defines it. Cues point
// at the object itself, so two cues share a region exactly when they hold
// the same pointer.
type rawRegion struct {
	id    string
	width float64
	// lines is a double because the spec reads any run of digits and
	// browsers expose the value as a JavaScript number.
	lines                float64
	anchorX, anchorY     float64
	viewportX, viewportY float64
	scroll               string
	line                 int
}

// newRegion returns a region with the spec's defaults.
func newRegion(line int) *rawRegion {
	return &rawRegion{width: 100, lines: 3, anchorX: 0, anchorY: 100, viewportX: 0, viewportY: 100, line: line}
}

// parseRegionSettings runs "collect WebVTT region settings" on the block
// text s. Each ignored setting is reported through bad.
func parseRegionSettings(r *rawRegion, s string, bad func(setting, why string)) {
	for _, setting := range splitSpace(s) {
		name, value, ok := splitSetting(setting)
		if !ok {
			bad(setting, "ignored: a region setting is name:value")
			continue
		}
		switch name {
		case "id":
			// The spec does not forbid "-->" in an id here, but such an
			// id can never be referenced, because a cue line with "-->"
			// ends the settings.
			r.id = value
		case "width":
			if p, ok := parsePercentage(value); ok {
				r.width = p
			} else {
				bad(setting, "ignored: width is a percentage from 0% to 100%")
			}
		case "lines":
			if !allDigits(value) {
				bad(setting, "ignored: lines is a whole number")
				continue
			}
			r.lines, _ = parseFinite(value)
		case "regionanchor", "viewportanchor":
			xs, ys, found := strings.Cut(value, ",")
			x, okX := parsePercentage(xs)
			y, okY := parsePercentage(ys)
			if !found || !okX || !okY {
				bad(setting, "ignored: "+name+" is two percentages, x%,y%")
				continue
			}
			if name == "regionanchor" {
				r.anchorX, r.anchorY = x, y
			} else {
				r.viewportX, r.viewportY = x, y
			}
		case "scroll":
			if value == "up" {
				r.scroll = "up"
			} else {
				bad(setting, "ignored: scroll is up")
			}
		default:
			bad(setting, "ignored: unknown region setting")
		}
	}
}

// irRegions turns the file's regions into IR regions: every value is
// filled in, an id defined twice keeps its last definition (as cues see
// it), and a region without an id, which no cue can name, is dropped.
func irRegions(regions []*rawRegion, d *diagSink) []caption.Region {
	last := make(map[string]*rawRegion, len(regions))
	for _, r := range regions {
		last[r.id] = r
	}
	var out []caption.Region
	for _, r := range regions {
		if r.id == "" {
			d.warnf(caption.CodeInvalidSetting, r.line, "a REGION block has no id, so no cue can use it; it was ignored")
			continue
		}
		if last[r.id] != r {
			d.warnf(caption.CodeInvalidSetting, r.line, "region id %q is defined again below; the later definition is used", r.id)
			continue
		}
		lines := int(math.Min(r.lines, math.MaxInt32))
		out = append(out, caption.Region{
			ID:        r.id,
			Width:     ptr(r.width),
			Lines:     &lines,
			AnchorX:   ptr(r.anchorX),
			AnchorY:   ptr(r.anchorY),
			ViewportX: ptr(r.viewportX),
			ViewportY: ptr(r.viewportY),
			Scroll:    r.scroll,
		})
	}
	return out
}

func ptr[T any](v T) *T { return &v }
