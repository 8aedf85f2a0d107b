package ttml

import (
	"fmt"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestParentWindow checks time containment: content a parent's interval
// cuts off entirely is left out with a content_not_displayed error on its
// element's line; content whose own end runs past its parent's is shown
// until the parent ends, with a warning; content that ends with its
// parent because it has no end of its own is not reported.
func TestParentWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		body  string // the <body>'s content, from line 3
		cues  []string
		diags []string // "line severity"
	}{
		{"p after its div", `<div begin="0s" end="2s">
<p begin="3s" end="5s">Late.</p></div>`,
			nil, []string{"4 error"}},
		{"p ending after its div", `<div begin="0s" end="2s">
<p begin="1s" end="5s">Cut.</p></div>`,
			[]string{"1000-2000 Cut."}, []string{"4 warning"}},
		{"p with dur past its div", `<div begin="10s" dur="2s">
<p begin="1s" dur="5s">Cut.</p></div>`,
			[]string{"11000-12000 Cut."}, []string{"4 warning"}},
		{"p with no end ends with its div", `<div begin="0s" end="2s">
<p begin="1s">Meant.</p></div>`,
			[]string{"1000-2000 Meant."}, nil},
		{"span after its p", `<div><p begin="1s" end="2s">Shown
<span begin="3s" end="4s">gone</span></p></div>`,
			[]string{"1000-2000 Shown"}, []string{"4 error"}},
		{"span ending after its p", `<div><p begin="1s" end="2s">Shown
<span begin="0.5s" end="4s">cut</span></p></div>`,
			[]string{"1000-1500 Shown", "1500-2000 Shown cut"}, []string{"4 warning"}},
		{"the cut of a p stands for its spans'", `<div end="2s">
<p end="3s">A <span end="2.5s">b</span></p></div>`,
			[]string{"0-2000 A b"}, []string{"4 warning"}},
		{"a div cut off is reported once", `<div begin="5s" end="4s"></div><div begin="60s">
<p>a</p><p>b</p></div>`,
			nil, []string{"3 error"}},
		{"seq child after the container", `<div end="3s" timeContainer="seq">
<p dur="2s">One.</p>
<p dur="2s">Two.</p>
<p dur="2s">Three.</p></div>`,
			[]string{"0-2000 One.", "2000-3000 Two."}, []string{"5 warning", "6 error"}},
		{"no text, nothing lost", `<div end="2s">
<p begin="3s" end="4s"> </p></div>`,
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := "<tt xmlns=\"http://www.w3.org/ns/ttml\" xml:lang=\"en\">\n<body end=\"50s\">\n" + tt.body + "\n</body></tt>\n"
			tr, diags, err := Parse(strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			var cues, got []string
			for _, c := range tr.Cues {
				cues = append(cues, fmt.Sprintf("%d-%d %s", c.StartMs, c.EndMs, c.Text))
			}
			for _, d := range diags {
				if d.Code == caption.CodeNoCues && len(tt.cues) == 0 {
					continue
				}
				if d.Code != caption.CodeContentNotDisplayed {
					t.Errorf("unexpected %s %s on line %d: %s", d.Severity, d.Code, d.Line, d.Message)
					continue
				}
				got = append(got, fmt.Sprintf("%d %s", d.Line, d.Severity))
			}
			if strings.Join(cues, "|") != strings.Join(tt.cues, "|") {
				t.Errorf("cues %q, want %q", cues, tt.cues)
			}
			if strings.Join(got, "|") != strings.Join(tt.diags, "|") {
				t.Errorf("diagnostics %q, want %q", got, tt.diags)
			}
		})
	}
}
