package ttml

import (
	"fmt"
	"strconv"
	"strings"
)

// namedColors is a read-only table of the TTML named colours (TTML1 §8.3.2).
var namedColors = map[string]string{
	"transparent": "#00000000", "black": "#000000", "silver": "#c0c0c0", "gray": "#808080",
	"white": "#ffffff", "maroon": "#800000", "red": "#ff0000", "purple": "#800080",
	"fuchsia": "#ff00ff", "magenta": "#ff00ff", "green": "#008000", "lime": "#00ff00",
	"olive": "#808000", "yellow": "#ffff00", "navy": "#000080", "blue": "#0000ff",
	"teal": "#008080", "aqua": "#00ffff", "cyan": "#00ffff",
}

// parseColor normalises a TTML colour to "#rrggbb", or "#rrggbbaa" when it
// is not opaque. It accepts named colours, #rgb, #rrggbb, #rrggbbaa,
// rgb(r,g,b) and rgba(r,g,b,a) with components 0-255.
func parseColor(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if c, ok := namedColors[s]; ok {
		return c, true
	}
	if hex, ok := strings.CutPrefix(s, "#"); ok {
		for i := 0; i < len(hex); i++ {
			if !strings.ContainsRune("0123456789abcdef", rune(hex[i])) {
				return "", false
			}
		}
		switch len(hex) {
		case 3:
			return "#" + string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]}), true
		case 6:
			return "#" + hex, true
		case 8:
			return normAlpha("#" + hex), true
		}
		return "", false
	}
	var args string
	var n int
	switch {
	case strings.HasPrefix(s, "rgba(") && strings.HasSuffix(s, ")"):
		args, n = s[5:len(s)-1], 4
	case strings.HasPrefix(s, "rgb(") && strings.HasSuffix(s, ")"):
		args, n = s[4:len(s)-1], 3
	default:
		return "", false
	}
	parts := strings.Split(args, ",")
	if len(parts) != n {
		return "", false
	}
	out := "#"
	for _, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 10, 8)
		if err != nil {
			return "", false
		}
		out += fmt.Sprintf("%02x", v)
	}
	return normAlpha(out), true
}

// normAlpha drops an opaque alpha so that equal colours compare equal.
func normAlpha(c string) string {
	if len(c) == 9 && c[7:] == "ff" {
		return c[:7]
	}
	return c
}
