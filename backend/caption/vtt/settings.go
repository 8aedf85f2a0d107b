package vtt

import (
	"math"
	"strconv"
	"strings"
)

// cueSettings holds a cue's settings as the spec defines them. Unset
// pointers and empty strings mean the spec default (line and position
// auto, size 100, align center, line align start, position align auto),
// so that the IR records only what the file said.
type cueSettings struct {
	vertical      string
	line          *float64
	snapToLines   bool
	lineAlign     string
	position      *float64
	positionAlign string
	size          *float64
	align         string
	region        *rawRegion
}

// parseSettings runs "parse the WebVTT cue settings" on s. regions maps
// each id to the last region defined with it, which is the one the spec
// picks. Each ignored setting is reported through bad.
func parseSettings(s string, regions map[string]*rawRegion, bad func(setting, why string)) cueSettings {
	cs := cueSettings{snapToLines: true}
	for _, setting := range splitSpace(s) {
		name, value, ok := splitSetting(setting)
		if !ok {
			bad(setting, "ignored: a setting is name:value")
			continue
		}
		switch name {
		case "region":
			cs.region = regions[value]
			if cs.region == nil {
				bad(setting, "ignored: no REGION with this id is defined")
			}
		case "vertical":
			if value == "rl" || value == "lr" {
				cs.vertical = value
			} else {
				bad(setting, "ignored: vertical is rl or lr")
			}
		case "line":
			parseLine(&cs, value, setting, bad)
		case "position":
			colpos, colalign, hasAlign := strings.Cut(value, ",")
			p, ok := parsePercentage(colpos)
			if !ok {
				bad(setting, "ignored: position is a percentage from 0% to 100%")
				continue
			}
			cs.position = &p
			// Current WPT keeps the position when only the alignment after
			// the comma is invalid.
			switch {
			case colalign == "line-left" || colalign == "center" || colalign == "line-right":
				cs.positionAlign = colalign
			case hasAlign:
				bad(setting, "the alignment after the comma was ignored (line-left, center or line-right); the position was kept")
			}
		case "size":
			p, ok := parsePercentage(value)
			if !ok {
				bad(setting, "ignored: size is a percentage from 0% to 100%")
				continue
			}
			cs.size = &p
		case "align":
			switch value {
			case "start", "center", "end", "left", "right":
				cs.align = value
			default:
				bad(setting, "ignored: align is start, center, end, left or right")
			}
		default:
			bad(setting, "ignored: unknown setting")
		}
	}
	return cs
}

// parseLine applies a "line" setting. As in current WPT, an invalid
// alignment after the comma leaves the line itself in force.
func parseLine(cs *cueSettings, value, setting string, bad func(setting, why string)) {
	linepos, linealign, hasAlign := strings.Cut(value, ",")
	if strings.IndexFunc(linepos, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
		bad(setting, "ignored: line needs a number")
		return
	}
	var number float64
	percent := strings.HasSuffix(linepos, "%")
	if percent {
		p, ok := parsePercentage(linepos)
		if !ok {
			bad(setting, "ignored: a line percentage is from 0% to 100%")
			return
		}
		number = p
	} else {
		n, ok := parseLineNumber(linepos)
		if !ok {
			bad(setting, "ignored: line is a whole or decimal number, or a percentage")
			return
		}
		number = n
	}
	cs.line = &number
	cs.snapToLines = !percent
	switch {
	case linealign == "start" || linealign == "center" || linealign == "end":
		cs.lineAlign = linealign
	case hasAlign:
		bad(setting, "the alignment after the comma was ignored (start, center or end); the line was kept")
	}
}

// parseLineNumber checks the spec's syntax for a line number (digits, an
// optional leading "-", at most one "." with digits on both sides) and
// interprets it. A value beyond the range of a double is invalid.
func parseLineNumber(s string) (float64, bool) {
	dots := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
		case c == '-' && i == 0:
		case c == '.':
			dots++
			if dots > 1 || i == 0 || i+1 >= len(s) || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	return parseFinite(s)
}

// parsePercentage runs "parse a percentage string": digits, optionally
// "." and digits, then "%", with a value from 0 to 100.
func parsePercentage(s string) (float64, bool) {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return 0, false
	}
	num := s[:len(s)-1]
	intPart, frac, hasDot := strings.Cut(num, ".")
	if !allDigits(intPart) || (hasDot && !allDigits(frac)) {
		return 0, false
	}
	v, ok := parseFinite(num)
	if !ok || v < 0 || v > 100 {
		return 0, false
	}
	return v, true
}

// parseFinite parses a syntax-checked decimal number. Underflow gives
// zero, as it does in browsers; overflow is an error. Negative zero is
// read as zero so that it compares and prints as 0.
func parseFinite(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if math.IsInf(v, 0) || math.IsNaN(v) || (err != nil && v != 0) {
		return 0, false
	}
	if v == 0 {
		v = 0
	}
	return v, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// splitSetting splits "name:value" at the first colon; a colon first or
// last is not a setting.
func splitSetting(s string) (name, value string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 || i == len(s)-1 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// splitSpace splits s on ASCII whitespace, as the spec's "split on spaces".
func splitSpace(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		i = skipSpace(s, i)
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}
