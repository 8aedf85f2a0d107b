package vtt

import "math"

// maxHours caps the hours of a timestamp: the spec allows any number of
// digits, but int64 milliseconds do not, and no media runs for 100,000
// years.
const maxHours = 1_000_000_000

// timestamp is a WebVTT timestamp as the spec computes it.
type timestamp struct {
	ms int64
	// clamped is set when the hours exceeded maxHours.
	clamped bool
}

// collectTimestamp runs the spec's "collect a WebVTT timestamp" on s from
// byte i. It returns the time, the position after it and whether it
// succeeded.
func collectTimestamp(s string, i int) (timestamp, int, bool) {
	var ts timestamp
	if i >= len(s) || !isDigit(s[i]) {
		return ts, i, false
	}
	v1, n1, clamped := digits(s, i)
	i += n1
	hours := n1 != 2 || v1 > 59
	if i >= len(s) || s[i] != ':' {
		return ts, i, false
	}
	i++
	v2, n2, _ := digits(s, i)
	if n2 != 2 {
		return ts, i, false
	}
	i += n2
	var v3 int64
	if hours || (i < len(s) && s[i] == ':') {
		if i >= len(s) || s[i] != ':' {
			return ts, i, false
		}
		i++
		var n3 int
		v3, n3, _ = digits(s, i)
		if n3 != 2 {
			return ts, i, false
		}
		i += n3
	} else {
		v1, v2, v3 = 0, v1, v2
	}
	if i >= len(s) || s[i] != '.' {
		return ts, i, false
	}
	i++
	v4, n4, _ := digits(s, i)
	if n4 != 3 {
		return ts, i, false
	}
	i += n4
	if v2 > 59 || v3 > 59 {
		return ts, i, false
	}
	if v1 > maxHours {
		v1, clamped = maxHours, true
	}
	ts.ms = v1*3_600_000 + v2*60_000 + v3*1000 + v4
	ts.clamped = clamped
	return ts, i, true
}

// digits reads a run of ASCII digits from s[i:], returning its value
// (saturated, so that a long run cannot overflow), its length and whether
// it saturated.
func digits(s string, i int) (v int64, n int, saturated bool) {
	for j := i; j < len(s) && isDigit(s[j]); j++ {
		if v > (math.MaxInt64-9)/10 {
			saturated = true
		} else {
			v = v*10 + int64(s[j]-'0')
		}
		n++
	}
	return v, n, saturated
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isSpace reports ASCII whitespace as the WebVTT spec defines it.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// timings is the result of "collect WebVTT cue timings and settings"
// before the settings are parsed.
type timings struct {
	start, end timestamp
	settings   string
}

// parseTimings reads a cue timing line. On failure it returns a reason
// for the diagnostic.
func parseTimings(line string) (timings, string, bool) {
	var t timings
	i := skipSpace(line, 0)
	var ok bool
	if t.start, i, ok = collectTimestamp(line, i); !ok {
		return t, timestampReason("start", line, i), false
	}
	i = skipSpace(line, i)
	for _, want := range []byte("-->") {
		if i >= len(line) || line[i] != want {
			return t, "the start time is not followed by \"-->\"", false
		}
		i++
	}
	i = skipSpace(line, i)
	if t.end, i, ok = collectTimestamp(line, i); !ok {
		return t, timestampReason("end", line, i), false
	}
	t.settings = line[i:]
	return t, "", true
}

// timestampReason explains a timestamp that failed, pointing out the
// SRT-style comma, the most common mistake in delivered files.
func timestampReason(which, line string, i int) string {
	if i < len(line) && line[i] == ',' {
		return "the " + which + " time uses ',' before the milliseconds; WebVTT needs '.' (hh:mm:ss.ttt)"
	}
	return "the " + which + " time is not a WebVTT timestamp (mm:ss.ttt or hh:mm:ss.ttt)"
}
