package standard

import (
	"fmt"
	"math"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeContrast grades WCAG 1.4.3 where the file can: for text whose
// colour and opaque background are both declared, the contrast ratio must
// reach cl.Limit (4.5:1; caption size is unknown, so the large-text 3:1
// allowance is not assumed). Text on the video or on the player's default
// box depends on the picture and the player, so any such text leaves the
// clause not_evaluated unless a declared pair already fails.
func gradeContrast(cl *ClauseSpec, p *input) outcome {
	t := p.output
	var fs []caption.Diagnostic
	undeclared, firstUndeclared := 0, -1
	for i := range t.Cues {
		reported, counted := false, false
		eachStyledRune(t, &t.Cues[i], func(fg, bg string) {
			f, okF := parseOpaque(fg)
			b, okB := parseOpaque(bg)
			if !okF || !okB {
				if !counted {
					undeclared++
					counted = true
					if firstUndeclared < 0 {
						firstUndeclared = i
					}
				}
				return
			}
			if r := contrastRatio(f, b); r < cl.Limit && !reported {
				reported = true
				d := cueFinding(t, i, "contrast_too_low", caption.SeverityError,
					"text %s on %s has a contrast ratio of %.2f:1, under %s:1", fg, bg, r, num(cl.Limit))
				fs = append(fs, measured(d, math.Round(r*100)/100, cl.Limit, "ratio"))
			}
		})
	}
	if len(fs) == 0 && undeclared > 0 {
		return notEvaluated(fmt.Sprintf("%d cues (the first at cue index %d) show text without both a declared colour and an opaque background, so contrast depends on the player and the picture",
			undeclared, firstUndeclared))
	}
	return settle(fs, "")
}

// rgb is a colour with channels in 0..1.
type rgb struct{ r, g, b float64 }

// parseOpaque parses "#rrggbb" (an opaque alpha is already dropped by
// normColour); a translucent or malformed colour is not usable.
func parseOpaque(s string) (rgb, bool) {
	if len(s) != 7 || s[0] != '#' {
		return rgb{}, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255}, true
}

// contrastRatio is WCAG 2.1's (L1 + 0.05) / (L2 + 0.05), L1 the lighter.
func contrastRatio(a, b rgb) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the relative luminance of an sRGB colour.
func luminance(c rgb) float64 {
	lin := func(v float64) float64 {
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}
