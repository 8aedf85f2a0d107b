package video

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/captionqa/captionqa/backend/caption"
)

// Default canvas of an ASS track muxed without a known frame size;
// players scale it to the video.
const assDefaultW, assDefaultH = 1920, 1080

// writeASS writes the delivery's cues as an ASS script for libass: a
// canvas of the video's own size (PlayResX/Y), so sizes are in the
// frame's pixels; the broadcast look of the preset deliveries (white
// DejaVu Sans, a black outline, no box) at about 5.5% of the frame
// height; the delivery's line breaks kept (WrapStyle 2: libass never
// re-wraps); italic, bold and underline spans; top and middle placement
// and left or right alignment. Cues without duration or visible text are
// left out.
func writeASS(t *caption.Track, w, h int) []byte {
	if w <= 0 || h <= 0 {
		w, h = assDefaultW, assDefaultH
	}
	size := max(h*55/1000, 12)
	outline := max(float64(h)/360, 1.5)
	var b strings.Builder
	fmt.Fprintf(&b, "[Script Info]\nScriptType: v4.00+\nPlayResX: %d\nPlayResY: %d\nWrapStyle: 2\nScaledBorderAndShadow: yes\n\n", w, h)
	b.WriteString("[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, " +
		"Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, " +
		"MarginL, MarginR, MarginV, Encoding\n")
	fmt.Fprintf(&b, "Style: Default,DejaVu Sans,%d,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,%.1f,0,2,%d,%d,%d,1\n\n",
		size, outline, w/10, w/10, h*6/100)
	b.WriteString("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
	for i := range t.Cues {
		c := &t.Cues[i]
		// As no caption writer writes a cue without duration or without
		// visible text (format.Delivers), neither does this one.
		if c.EndMs <= c.StartMs || strings.TrimFunc(c.Text, unicode.IsSpace) == "" {
			continue
		}
		fmt.Fprintf(&b, "Dialogue: 0,%s,%s,Default,,0,0,0,,%s%s\n", assTime(c.StartMs), assTime(c.EndMs), assAlign(c.Placement), assText(c))
	}
	return []byte(b.String())
}

// assTime formats ms as H:MM:SS.cc, rounded to the centisecond.
func assTime(ms int64) string {
	cs := (ms + 5) / 10
	return fmt.Sprintf("%d:%02d:%02d.%02d", cs/360000, cs/6000%60, cs/100%60, cs%100)
}

// assAlign returns the \an override of a placement ("" for the default,
// bottom centre).
func assAlign(p *caption.Placement) string {
	if p == nil {
		return ""
	}
	row := map[string]int{"top": 6, "middle": 3}[p.Area] // numpad rows: bottom 1-3, middle 4-6, top 7-9
	col := 2
	switch p.Align {
	case "left", "start":
		col = 1
	case "right", "end":
		col = 3
	}
	if row == 0 && col == 2 {
		return ""
	}
	return fmt.Sprintf(`{\an%d}`, row+col)
}

// assText returns the cue's text with its spans as override tags and its
// line breaks as \N. ASS has no escape for "{", "}" or "\": they are
// replaced by look-alikes, so that text never becomes a tag.
func assText(c *caption.Cue) string {
	runes := []rune(c.Text)
	opens := map[int][]string{}
	closes := map[int][]string{}
	for _, s := range c.Spans {
		if s.Start < 0 || s.End > len(runes) || s.Start >= s.End {
			continue
		}
		for _, f := range []struct {
			on  bool
			tag string
		}{{s.Italic, "i"}, {s.Bold, "b"}, {s.Underline, "u"}} {
			if f.on {
				opens[s.Start] = append(opens[s.Start], `\`+f.tag+"1")
				closes[s.End] = append(closes[s.End], `\`+f.tag+"0")
			}
		}
	}
	var b strings.Builder
	for i := 0; i <= len(runes); i++ {
		if tags := append(closes[i], opens[i]...); len(tags) > 0 {
			b.WriteString("{" + strings.Join(tags, "") + "}")
		}
		if i == len(runes) {
			break
		}
		switch r := runes[i]; r {
		case '\n':
			b.WriteString(`\N`)
		case '\r':
		case '{':
			b.WriteRune('(')
		case '}':
			b.WriteRune(')')
		case '\\':
			b.WriteRune('∖')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
