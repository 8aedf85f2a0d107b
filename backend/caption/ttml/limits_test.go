package ttml

import (
	"strings"
	"testing"
	"time"
)

// TestHostileInputsStayFast feeds documents built to trigger quadratic or
// unbounded work and checks they are refused or read quickly.
func TestHostileInputsStayFast(t *testing.T) {
	t.Parallel()
	const head = `<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p>`
	tests := []struct {
		name string
		doc  string
	}{
		{"deep nesting", head + strings.Repeat("<span>", 5000) + "x" + strings.Repeat("</span>", 5000) + "</p></div></body></tt>"},
		{"many timed spans", head + strings.Repeat(`<span begin="1s">a</span><span begin="2s" end="3s">b</span>`, 5000) + "</p></div></body></tt>"},
		{"cdata alternation", head + strings.Repeat("a<![CDATA[b]]>", 50000) + "</p></div></body></tt>"},
		{"crawl", head + func() string {
			var sb strings.Builder
			for i := range 5000 {
				sb.WriteString(`<span begin="` + time.Duration(i*int(time.Millisecond)).String() + `">w </span>`)
			}
			return sb.String()
		}() + "</p></div></body></tt>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			if _, _, err := Parse(strings.NewReader(tt.doc)); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 2*slowdown*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
