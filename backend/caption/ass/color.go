package ass

import (
	"strconv"
	"strings"
)

// parseColor reads an ASS colour: "&HAABBGGRR&", "&HBBGGRR", "H00FF" (hex
// after an optional "&" and "H", trailing "&" optional) or an SSA decimal,
// possibly negative ("-2147483640" is &H80000008). Fewer than eight hex
// digits leave the high bytes zero.
func parseColor(s string) (uint32, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "&")
	if len(s) > 0 && (s[0] == 'H' || s[0] == 'h') {
		hex := s[1:]
		end := 0
		for end < len(hex) && isHex(hex[end]) {
			end++
		}
		if end == 0 || end > 8 || strings.TrimRight(hex[end:], "&") != "" {
			return 0, false
		}
		v, err := strconv.ParseUint(hex[:end], 16, 32)
		return uint32(v), err == nil
	}
	s = strings.TrimSuffix(s, "&")
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < -1<<31 || v > 1<<32-1 {
		return 0, false
	}
	return uint32(v), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

// colour is an ASS colour split into its red-green-blue value (0xRRGGBB)
// and its alpha, which ASS counts as transparency: 0 is opaque.
type colour struct {
	rgb   uint32
	alpha uint8
}

// whiteRGB is the default primary colour, which spans leave out.
const whiteRGB = 0xFFFFFF

// fromABGR splits an &HAABBGGRR value.
func fromABGR(v uint32) colour {
	r, g, b := v&0xFF, v>>8&0xFF, v>>16&0xFF
	return colour{rgb: r<<16 | g<<8 | b, alpha: uint8(v >> 24)}
}

// css formats c as "#rrggbb", or "#rrggbbaa" with the alpha inverted to
// CSS opacity when c is not opaque.
func (c colour) css() string {
	const digits = "0123456789abcdef"
	buf := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i := 0; i < 6; i++ {
		buf[1+i] = digits[c.rgb>>(20-4*i)&0xF]
	}
	if c.alpha != 0 {
		o := 255 - c.alpha
		buf = append(buf, digits[o>>4], digits[o&0xF])
	}
	return string(buf)
}
