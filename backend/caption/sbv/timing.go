package sbv

import "strings"

// Messages for the timing departures the reader accepts.
const (
	msgNoFraction    = "a timestamp has no milliseconds"
	msgFractionSize  = "the milliseconds of a timestamp are not three digits; they were read as a decimal fraction"
	msgNoHours       = "a timestamp has no hours"
	msgTimingSpacing = "the timing line has spaces around its times"
)

// parseTiming reads "H:MM:SS.mmm,H:MM:SS.mmm". q lists the departures from
// that form that were accepted.
func parseTiming(line string) (start, end int64, q []string, ok bool) {
	a, b, found := strings.Cut(line, ",")
	if !found {
		return 0, 0, nil, false
	}
	if ta, tb := strings.TrimSpace(a), strings.TrimSpace(b); len(ta) != len(a) || len(tb) != len(b) {
		q = append(q, msgTimingSpacing)
		a, b = ta, tb
	}
	start, q, ok = parseClock(a, q)
	if !ok {
		return 0, 0, nil, false
	}
	end, q, ok = parseClock(b, q)
	return start, end, q, ok
}

// parseClock reads H:MM:SS.fff (hours of any length, fraction optional).
func parseClock(s string, q []string) (int64, []string, bool) {
	var field [3]int64
	var digits [3]int
	n, i := 0, 0
	for {
		start := i
		var v int64
		for i < len(s) && isDigit(s[i]) {
			if i-start == 9 {
				return 0, q, false // keeps the milliseconds within an int64
			}
			v = v*10 + int64(s[i]-'0')
			i++
		}
		if i == start || n == 3 {
			return 0, q, false
		}
		field[n], digits[n] = v, i-start
		n++
		if i < len(s) && s[i] == ':' {
			i++
			continue
		}
		break
	}
	if n < 2 {
		return 0, q, false
	}
	if n == 2 {
		field[0], field[1], field[2] = 0, field[0], field[1]
		digits[1], digits[2] = digits[0], digits[1]
		q = appendOnce(q, msgNoHours)
	}
	if digits[1] > 2 || digits[2] > 2 || field[1] > 59 || field[2] > 59 {
		return 0, q, false
	}
	var frac int64
	switch {
	case i == len(s):
		q = appendOnce(q, msgNoFraction)
	case s[i] == '.':
		i++
		k := 0
		for ; i < len(s) && isDigit(s[i]); i, k = i+1, k+1 {
			switch {
			case k < 3:
				frac = frac*10 + int64(s[i]-'0')
			case k == 3 && s[i] >= '5':
				frac++
			}
		}
		if k == 0 || i != len(s) {
			return 0, q, false
		}
		if k != 3 {
			q = appendOnce(q, msgFractionSize)
		}
		for ; k < 3; k++ {
			frac *= 10
		}
	default:
		return 0, q, false
	}
	return ((field[0]*60+field[1])*60+field[2])*1000 + frac, q, true
}

// looksLikeTiming reports whether a line that is not a valid timing line
// was meant to be one: it starts with a digit and has a ':' and a ',',
// or it opens with a clock.
func looksLikeTiming(line string) bool {
	t := strings.TrimSpace(line)
	if t != "" && isDigit(t[0]) && strings.Contains(t, ":") && strings.Contains(t, ",") {
		return true
	}
	// A line opening with a clock (H:MM:SS) is a timing line with the
	// wrong separator or a broken end, not caption text.
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	clock := func(at int) bool { return at+3 <= len(t) && t[at] == ':' && isDigit(t[at+1]) && isDigit(t[at+2]) }
	return i > 0 && clock(i) && clock(i+3)
}

func appendOnce(q []string, msg string) []string {
	for _, m := range q {
		if m == msg {
			return q
		}
	}
	return append(q, msg)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
