package srt

import "strings"

// quirk is a bit set of the timing-line departures the reader accepts.
type quirk uint16

const (
	quirkDotFraction quirk = 1 << iota
	quirkShortFraction
	quirkLongFraction
	quirkNoFraction
	quirkNoHours
	quirkHourDigits
	quirkShortField
	quirkArrowSpacing
)

// quirkMessages is a read-only table describing each quirk, indexed by
// bit position.
var quirkMessages = [quirkBits]string{
	"a \".\" separates the milliseconds; SRT uses \",\"",
	"the milliseconds have fewer than three digits; they were read as a decimal fraction",
	"the milliseconds have more than three digits; they were rounded",
	"a timestamp has no milliseconds",
	"a timestamp has no hours",
	"the hours of a timestamp are not two digits",
	"the minutes or seconds of a timestamp are one digit",
	"the \"-->\" arrow is not surrounded by spaces",
}

// maxHourDigits bounds the hours so that the milliseconds fit an int64.
const maxHourDigits = 9

// parseClock reads one timestamp (without surrounding spaces) in
// milliseconds. It accepts H+:MM:SS[,.]f+ and the departures in [quirk];
// negative times have no syntax here, so they fail.
func parseClock(s string) (ms int64, q quirk, ok bool) {
	var field [3]int64
	var digits [3]int
	n, i := 0, 0
	for {
		start := i
		var v int64
		for i < len(s) && isDigit(s[i]) {
			if i-start == maxHourDigits {
				return 0, 0, false
			}
			v = v*10 + int64(s[i]-'0')
			i++
		}
		if i == start || n == 3 {
			return 0, 0, false
		}
		field[n], digits[n] = v, i-start
		n++
		if i < len(s) && s[i] == ':' {
			i++
			continue
		}
		break
	}
	var h, m, sec int64
	switch n {
	case 3:
		h, m, sec = field[0], field[1], field[2]
		if digits[0] != 2 {
			q |= quirkHourDigits
		}
		digits[0], digits[1] = digits[1], digits[2]
	case 2:
		m, sec = field[0], field[1]
		q |= quirkNoHours
	default:
		return 0, 0, false
	}
	if digits[0] > 2 || digits[1] > 2 || m > 59 || sec > 59 {
		return 0, 0, false
	}
	if digits[0] == 1 || digits[1] == 1 {
		q |= quirkShortField
	}
	var frac int64
	switch {
	case i == len(s):
		if n == 2 {
			// "01:02" alone could be hours:minutes or minutes:seconds.
			return 0, 0, false
		}
		q |= quirkNoFraction
	case s[i] == ',' || s[i] == '.':
		if s[i] == '.' {
			q |= quirkDotFraction
		}
		i++
		k := 0
		for ; i < len(s) && isDigit(s[i]); i, k = i+1, k+1 {
			switch {
			case k < 3:
				frac = frac*10 + int64(s[i]-'0')
			case k == 3 && s[i] >= '5':
				frac++ // round half up on the fourth digit
			}
		}
		if k == 0 || i != len(s) {
			return 0, 0, false
		}
		switch {
		case k < 3:
			q |= quirkShortFraction
			for ; k < 3; k++ {
				frac *= 10
			}
		case k > 3:
			q |= quirkLongFraction
		}
	default:
		return 0, 0, false
	}
	return ((h*60+m)*60+sec)*1000 + frac, q, true
}

// parseTiming reads a timing line: start, "-->", end, and whatever follows
// the end time (SubViewer coordinates or junk), returned as rest.
func parseTiming(line string) (start, end int64, rest string, q quirk, ok bool) {
	if start, end, ok := parseStandardTiming(line); ok {
		return start, end, trimSpace(line[standardTimingLen:]), 0, true
	}
	k := strings.Index(line, "-->")
	if k < 0 {
		return 0, 0, "", 0, false
	}
	left, right := line[:k], line[k+3:]
	if !strings.HasSuffix(left, " ") || !strings.HasPrefix(right, " ") {
		q |= quirkArrowSpacing
	}
	start, q1, ok := parseClock(trimSpace(left))
	if !ok {
		return 0, 0, "", 0, false
	}
	right = trimLeftSpace(right)
	j := 0
	for j < len(right) && right[j] != ' ' && right[j] != '\t' {
		j++
	}
	end, q2, ok := parseClock(right[:j])
	if !ok {
		return 0, 0, "", 0, false
	}
	return start, end, trimSpace(right[j:]), q | q1 | q2, true
}

// standardTimingLen is the length of "HH:MM:SS,mmm --> HH:MM:SS,mmm".
const standardTimingLen = 29

// parseStandardTiming reads the exact standard layout by fixed positions:
// nearly every timing line has it, and this is several times faster than
// the general path, which handles everything else.
func parseStandardTiming(s string) (start, end int64, ok bool) {
	if len(s) < standardTimingLen || s[12:17] != " --> " {
		return 0, 0, false
	}
	start, ok = standardClock(s[:12])
	if !ok {
		return 0, 0, false
	}
	end, ok = standardClock(s[17:29])
	return start, end, ok
}

// standardClock reads "HH:MM:SS,mmm".
func standardClock(s string) (int64, bool) {
	s = s[:12]
	if s[2] != ':' || s[5] != ':' || s[8] != ',' {
		return 0, false
	}
	// A byte below '0' wraps around to more than 9.
	h0, h1, m0, m1 := s[0]-'0', s[1]-'0', s[3]-'0', s[4]-'0'
	s0, s1, f0, f1, f2 := s[6]-'0', s[7]-'0', s[9]-'0', s[10]-'0', s[11]-'0'
	if h0 > 9 || h1 > 9 || m0 > 5 || m1 > 9 || s0 > 5 || s1 > 9 || f0 > 9 || f1 > 9 || f2 > 9 {
		return 0, false
	}
	h := int64(h0)*10 + int64(h1)
	m := int64(m0)*10 + int64(m1)
	sec := int64(s0)*10 + int64(s1)
	return (h*60+m)*60_000 + sec*1000 + int64(f0)*100 + int64(f1)*10 + int64(f2), true
}

// isCoordinates reports whether rest is SubViewer-style box coordinates
// ("X1:40 X2:600 Y1:20 Y2:50").
func isCoordinates(rest string) bool {
	return len(rest) > 3 && (rest[0] == 'X' || rest[0] == 'x') && rest[1] >= '1' && rest[1] <= '2' && rest[2] == ':'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isSpace is the whitespace that SRT lines may carry around their content.
// Only ASCII counts: a no-break space (from &nbsp;) is content.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

func trimSpace(s string) string { return trimRightSpace(trimLeftSpace(s)) }

func trimLeftSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

func trimRightSpace(s string) string {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}
