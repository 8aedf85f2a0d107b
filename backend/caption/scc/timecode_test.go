package scc

import (
	"strings"
	"testing"
)

// TestTimecodeConvention pins how timecodes become milliseconds: a
// timecode names a frame of 29.97 fps video, and frame n starts at
// n×1001/30 ms. Drop-frame labels stay within a frame of the clock;
// non-drop-frame labels run 0.1% slow, so an hour of them is 3603.6 s.
func TestTimecodeConvention(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tc    string
		frame int64
		ms    int64
	}{
		{"00:00:00:00", 0, 0},
		{"00:00:01:00", 30, 1001},
		{"00:00:01;00", 30, 1001},
		{"00:00:01.15", 45, 1502},
		{"00:00:59;29", 1799, 60027},
		{"00:01:00;02", 1800, 60060},   // ;00 and ;01 do not exist
		{"00:01:00:00", 1800, 60060},   // the same frame, non-drop
		{"00:10:00;00", 17982, 599999}, // every tenth minute keeps them
		{"01:00:00;00", 107892, 3599996},
		{"01:00:00:00", 108000, 3603600}, // 0.1% slow: 3.6 s past the hour
		{"10:00:00;00", 1078920, 35999964},
		{"10:00:00:00", 1080000, 36036000},
		{"00;00;01;00", 30, 1001}, // semicolons throughout: drop-frame
	}
	for _, tt := range tests {
		tc, problem, ok := parseTimecode(tt.tc)
		if !ok || problem != "" {
			t.Errorf("parseTimecode(%q): ok %v, problem %q", tt.tc, ok, problem)
			continue
		}
		if got := tc.frame(); got != tt.frame {
			t.Errorf("%s is frame %d, want %d", tt.tc, got, tt.frame)
		}
		if got := frameToMs(tc.frame()); got != tt.ms {
			t.Errorf("%s starts at %d ms, want %d", tt.tc, got, tt.ms)
		}
	}
}

// TestTimecodeRoundTrip formats every frame of the first 21 minutes both
// ways and reads it back, and converts every millisecond of a minute to
// a frame and back within half a frame.
func TestTimecodeRoundTrip(t *testing.T) {
	t.Parallel()
	for n := range int64(21 * 60 * 30) {
		for _, drop := range []bool{true, false} {
			s := formatTimecode(n, drop)
			tc, problem, ok := parseTimecode(s)
			if !ok || problem != "" || tc.frame() != n || tc.drop != drop {
				t.Fatalf("frame %d (drop %v) formats as %q, which reads back as frame %d (%v, %q)", n, drop, s, tc.frame(), ok, problem)
			}
		}
	}
	for ms := range int64(60_000) {
		if back := frameToMs(msToFrame(ms)); abs64(back-ms) > 17 {
			t.Fatalf("%d ms is frame %d, which starts at %d ms", ms, msToFrame(ms), back)
		}
	}
	if got := formatTimecode(107892, true); got != "01:00:00;00" {
		t.Errorf("frame 107892 drop-frame = %s", got)
	}
	if got := formatTimecode(107892, false); got != "00:59:56:12" {
		t.Errorf("frame 107892 non-drop-frame = %s", got)
	}
}

// TestTimecodeProblems: fields out of range and skipped drop-frame labels
// are read with a problem; anything else that is not a timecode is not.
func TestTimecodeProblems(t *testing.T) {
	t.Parallel()
	for s, frame := range map[string]int64{"00:00:01;45": 75, "00:00:60:00": 1800, "00:02:00;01": 3598} {
		tc, problem, ok := parseTimecode(s)
		if !ok || problem == "" || tc.frame() != frame {
			t.Errorf("parseTimecode(%q) = frame %d, %q, %v; want frame %d with a problem", s, tc.frame(), problem, ok, frame)
		}
	}
	for _, s := range []string{"", "00:00:01", "00:00:01:00:00", "0:0:1:0x", "0000:00:01:00", "00-00-01-00", "00:00:01,00", "a0:00:01:00"} {
		if _, _, ok := parseTimecode(s); ok {
			t.Errorf("parseTimecode(%q) reads a timecode", s)
		}
	}
	if !strings.Contains(formatTimecode(0, true), ";") || strings.Contains(formatTimecode(0, false), ";") {
		t.Error("drop-frame separator")
	}
}
