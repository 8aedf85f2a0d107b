package ass

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLinearTime feeds inputs built to make a careless reader quadratic
// and checks that each is read quickly. Each input takes a few
// milliseconds when the reader is linear and tens of seconds when it is
// not; the cases run one after another, and the best of three runs
// counts, so that a busy machine does not fail the test.
func TestLinearTime(t *testing.T) {
	t.Parallel()
	const head = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
	event := "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,"
	var interleaved strings.Builder
	interleaved.WriteString(head)
	for i := range 5000 {
		fmt.Fprintf(&interleaved, "Style: S%d,Arial,20,&H00FFFFFF,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n", i)
		fmt.Fprintf(&interleaved, "Dialogue: 0,0:00:01.00,0:00:02.00,Unknown%d,,0,0,0,,x\n", i)
	}
	tests := []struct {
		name string
		in   string
	}{
		{"unclosed braces", head + event + strings.Repeat("{", 1<<18)},
		{"backslashes", head + event + strings.Repeat(`\`, 1<<18)},
		{"many tags", head + event + strings.Repeat(`{\i1}a{\i0\b1\c&H0000FF&}b`, 1<<13)},
		{"nested parens", head + event + "{" + strings.Repeat(`\t(`, 1<<15) + "}x"},
		{"drawing", head + event + `{\p1}` + strings.Repeat("m 0 0 l 1 1 ", 1<<14)},
		{"spaces around breaks", head + event + strings.Repeat(` \N `, 1<<15)},
		{"many events", head + strings.Repeat(event+"text, with commas\n", 12000)},
		{"styles and unknown style names interleaved", interleaved.String()},
		{"long section header", strings.Repeat("[", 1<<18)},
	}
	budget := time.Second
	if raceEnabled {
		budget *= 10
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var best time.Duration
			for run := 0; run < 3 && (run == 0 || best > budget); run++ {
				begin := time.Now()
				track, diags, err := Parse(strings.NewReader(tt.in))
				if err != nil {
					t.Fatal(err)
				}
				if d := time.Since(begin); run == 0 || d < best {
					best = d
				}
				checkInvariants(t, track, diags)
			}
			if best > budget {
				t.Errorf("took %v for %d bytes", best, len(tt.in))
			}
		})
	}
}
