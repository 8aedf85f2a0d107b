package ttml

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// timeParams are the tt element's timing parameters.
type timeParams struct {
	frameRate    float64 // effective: ttp:frameRate times the multiplier
	subFrameRate float64
	tickRate     float64
	declared     bool // ttp:frameRate was given
}

// maxSeconds bounds time values so that converting them to milliseconds
// cannot overflow (about 31,700 years).
const maxSeconds = 1e12

var errTime = errors.New("not a TTML time expression")

// readTimeParams reads ttp:frameRate, ttp:frameRateMultiplier,
// ttp:subFrameRate and ttp:tickRate with the defaults of TTML1 §6.2.
// Bad values are reported through bad and replaced by the default.
func readTimeParams(tt *node, bad func(attr, value string)) timeParams {
	p := timeParams{frameRate: 30, subFrameRate: 1}
	if v, ok := tt.attr(nsParameter, "frameRate"); ok {
		if f, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32); err == nil && f > 0 {
			p.frameRate, p.declared = float64(f), true
		} else {
			bad("ttp:frameRate", v)
		}
	}
	if v, ok := tt.attr(nsParameter, "frameRateMultiplier"); ok {
		f := strings.Fields(v)
		var num, den uint64
		var err1, err2 error
		if len(f) == 2 {
			num, err1 = strconv.ParseUint(f[0], 10, 32)
			den, err2 = strconv.ParseUint(f[1], 10, 32)
		}
		if len(f) != 2 || err1 != nil || err2 != nil || num == 0 || den == 0 {
			bad("ttp:frameRateMultiplier", v)
		} else {
			p.frameRate *= float64(num) / float64(den)
		}
	}
	if v, ok := tt.attr(nsParameter, "subFrameRate"); ok {
		if f, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32); err == nil && f > 0 {
			p.subFrameRate = float64(f)
		} else {
			bad("ttp:subFrameRate", v)
		}
	}
	p.tickRate = 1
	if p.declared {
		p.tickRate = p.frameRate * p.subFrameRate
	}
	if v, ok := tt.attr(nsParameter, "tickRate"); ok {
		if f, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32); err == nil && f > 0 {
			p.tickRate = float64(f)
		} else {
			bad("ttp:tickRate", v)
		}
	}
	return p
}

// parseTime reads a clock-time or offset-time expression (TTML1 §10.3.1)
// and returns seconds.
func (p timeParams) parseTime(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, ":") {
		return p.parseClock(s)
	}
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, metric := s[:i], s[i:]
	if !isDecimal(num) {
		return 0, errTime
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, errTime
	}
	switch metric {
	case "h":
		v *= 3600
	case "m":
		v *= 60
	case "s":
	case "ms":
		v /= 1000
	case "f":
		v /= p.frameRate
	case "t":
		v /= p.tickRate
	default:
		return 0, errTime
	}
	return checkRange(v)
}

// parseClock reads hours:minutes:seconds with a fraction, or with frames
// and optional sub-frames. Hours may have any number of digits.
func (p timeParams) parseClock(s string) (float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 && len(parts) != 4 {
		return 0, errTime
	}
	h, ok1 := digits(parts[0], 1)
	m, ok2 := digits(parts[1], 2)
	if !ok1 || !ok2 || m >= 60 {
		return 0, errTime
	}
	secPart := parts[2]
	var frac string
	if len(parts) == 3 {
		secPart, frac, _ = strings.Cut(parts[2], ".")
	}
	sec, ok := digits(secPart, 2)
	if !ok || sec > 60 {
		return 0, errTime
	}
	v := h*3600 + m*60 + sec
	if len(parts) == 3 && frac != "" || strings.HasSuffix(parts[2], ".") {
		if !isDigits(frac) {
			return 0, errTime
		}
		f, _ := strconv.ParseFloat("0."+frac, 64)
		v += f
	}
	if len(parts) == 4 {
		fr, sub, hasSub := strings.Cut(parts[3], ".")
		frames, ok := digits(fr, 1)
		if !ok {
			return 0, errTime
		}
		v += frames / p.frameRate
		if hasSub {
			sf, ok := digits(sub, 1)
			if !ok {
				return 0, errTime
			}
			v += sf / (p.frameRate * p.subFrameRate)
		}
	}
	return checkRange(v)
}

func checkRange(v float64) (float64, error) {
	if math.IsNaN(v) || v < 0 || v > maxSeconds {
		return 0, errTime
	}
	return v, nil
}

// digits parses a run of at least minLen ASCII digits.
func digits(s string, minLen int) (float64, bool) {
	if len(s) < minLen || !isDigits(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimal accepts digits with at most one '.' that has digits on both
// sides, as TTML's time-count and fraction grammar requires.
func isDecimal(s string) bool {
	whole, frac, hasDot := strings.Cut(s, ".")
	return isDigits(whole) && (!hasDot || isDigits(frac))
}

// toMs rounds seconds to the nearest millisecond; +Inf (an indefinite
// end) becomes [openEnd].
func toMs(s float64) int64 {
	if math.IsInf(s, 1) || s > maxSeconds {
		return openEnd
	}
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return int64(math.Round(s * 1000))
}

// openEnd stands for an indefinite end in milliseconds.
const openEnd = math.MaxInt64
