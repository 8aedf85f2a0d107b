package ass

import (
	"fmt"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/scaling"
)

// TestLinearTime feeds inputs built to make a careless reader quadratic,
// checks what is read from each, and checks that reading time grows in
// proportion to the input: a linear reader takes a few milliseconds on
// the larger of each pair, a quadratic one seconds.
func TestLinearTime(t *testing.T) {
	// Not parallel: the package's other tests would collect and
	// allocate through the timed runs (see package scaling).
	const head = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
	event := "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,"
	tests := []struct {
		name  string
		n     int // the smaller size checked
		build func(n int) string
	}{
		{"unclosed braces", 1 << 14, func(n int) string { return head + event + strings.Repeat("{", n) }},
		{"backslashes", 1 << 14, func(n int) string { return head + event + strings.Repeat(`\`, n) }},
		{"many tags", 1 << 8, func(n int) string { return head + event + strings.Repeat(`{\i1}a{\i0\b1\c&H0000FF&}b`, n) }},
		{"nested parens", 1 << 13, func(n int) string { return head + event + "{" + strings.Repeat(`\t(`, n) + "}x" }},
		{"drawing", 1 << 12, func(n int) string { return head + event + `{\p1}` + strings.Repeat("m 0 0 l 1 1 ", n) }},
		{"spaces around breaks", 1 << 10, func(n int) string { return head + event + strings.Repeat(` \N `, n) }},
		{"many events", 200, func(n int) string { return head + strings.Repeat(event+"text, with commas\n", n) }},
		{"styles and unknown style names interleaved", 75, func(n int) string {
			var b strings.Builder
			b.WriteString(head)
			for i := range n {
				fmt.Fprintf(&b, "Style: S%d,Arial,20,&H00FFFFFF,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n", i)
				fmt.Fprintf(&b, "Dialogue: 0,0:00:01.00,0:00:02.00,Unknown%d,,0,0,0,,x\n", i)
			}
			return b.String()
		}},
		{"long section header", 1 << 16, func(n int) string { return strings.Repeat("[", n) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			track, diags, err := Parse(strings.NewReader(tt.build(scaling.Factor * tt.n)))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, track, diags)
			scaling.Linear(t, tt.n, tt.build, func(in string) {
				if _, _, err := Parse(strings.NewReader(in)); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}
