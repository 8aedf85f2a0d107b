package srt

import "testing"

func TestParseClock(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		ms   int64
		q    quirk
		fail bool
	}{
		{in: "00:00:00,000"},
		{in: "01:02:03,004", ms: 3_723_004},
		{in: "100:00:00,000", ms: 360_000_000, q: quirkHourDigits},
		{in: "00:00:01.500", ms: 1500, q: quirkDotFraction},
		{in: "00:00:01,5", ms: 1500, q: quirkShortFraction},
		{in: "00:00:01,05", ms: 1050, q: quirkShortFraction},
		{in: "00:00:01,0005", ms: 1001, q: quirkLongFraction},
		{in: "00:00:01", ms: 1000, q: quirkNoFraction},
		{in: "01:02,003", ms: 62_003, q: quirkNoHours},
		{in: "1:2:3,004", ms: 3_723_004, q: quirkHourDigits | quirkShortField},
		{in: "01:02", fail: true}, // hours:minutes or minutes:seconds?
		{in: "-00:00:01,000", fail: true},
		{in: "00:60:00,000", fail: true},
		{in: "00:00:60,000", fail: true},
		{in: "00:00:01,", fail: true},
		{in: "00:00:01,000x", fail: true},
		{in: "00:00:01:000", fail: true},
		{in: "1234567890:00:00,000", fail: true},
		{in: "", fail: true},
	}
	for _, tt := range tests {
		ms, q, ok := parseClock(tt.in)
		if ok == tt.fail || ok && (ms != tt.ms || q != tt.q) {
			t.Errorf("parseClock(%q) = %d, %b, %v; want %d, %b, %v", tt.in, ms, q, ok, tt.ms, tt.q, !tt.fail)
		}
	}
}

func TestParseTiming(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in         string
		start, end int64
		rest       string
		q          quirk
		fail       bool
	}{
		{in: "00:00:01,000 --> 00:00:02,000", start: 1000, end: 2000},
		{in: "00:00:01,000 --> 00:00:02,000 X1:1 X2:2 Y1:3 Y2:4", start: 1000, end: 2000, rest: "X1:1 X2:2 Y1:3 Y2:4"},
		{in: "  00:00:01,000   -->   00:00:02,000  ", start: 1000, end: 2000},
		{in: "00:00:01,000-->00:00:02,000", start: 1000, end: 2000, q: quirkArrowSpacing},
		{in: "00:00:01.000 --> 00:00:02,000", start: 1000, end: 2000, q: quirkDotFraction},
		{in: "00:00:01,000 -> 00:00:02,000", fail: true},
		{in: "00:00:01,000 --> ", fail: true},
		{in: "--> 00:00:02,000", fail: true},
	}
	for _, tt := range tests {
		start, end, rest, q, ok := parseTiming(tt.in)
		if ok == tt.fail || ok && (start != tt.start || end != tt.end || rest != tt.rest || q != tt.q) {
			t.Errorf("parseTiming(%q) = %d, %d, %q, %b, %v", tt.in, start, end, rest, q, ok)
		}
	}
}
