package ttml

import (
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/scaling"
)

// TestHostileInputsStayLinear feeds documents built to trigger quadratic
// or unbounded work and checks that reading time grows in proportion to
// the document, whether the reader refuses a part of it or reads it all.
func TestHostileInputsStayLinear(t *testing.T) {
	// Not parallel: the package's other tests would collect and
	// allocate through the timed runs (see package scaling).
	const head, tail = `<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p>`, "</p></div></body></tt>"
	tests := []struct {
		name  string
		n     int // the smaller size checked
		build func(n int) string
	}{
		// The reader stops nesting at maxDepth (1000): the larger input
		// stays below it, so depth itself is what grows.
		{"deep nesting", 30, func(n int) string {
			return head + strings.Repeat("<span>", n) + "x" + strings.Repeat("</span>", n) + tail
		}},
		{"many timed spans", 150, func(n int) string {
			return head + strings.Repeat(`<span begin="1s">a</span><span begin="2s" end="3s">b</span>`, n) + tail
		}},
		{"cdata alternation", 1500, func(n int) string { return head + strings.Repeat("a<![CDATA[b]]>", n) + tail }},
		{"crawl", 150, func(n int) string {
			var sb strings.Builder
			sb.WriteString(head)
			for i := range n {
				sb.WriteString(`<span begin="` + time.Duration(i*int(time.Millisecond)).String() + `">w </span>`)
			}
			return sb.String() + tail
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scaling.Linear(t, tt.n, tt.build, func(doc string) {
				if _, _, err := Parse(strings.NewReader(doc)); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}
