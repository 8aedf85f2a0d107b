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
		{"seq child after one shown indefinitely", `<div timeContainer="seq">
<p>Shown to the end.</p>
<p dur="2s">Never begins.</p>
<p>Nor this.</p></div>`,
			[]string{"0-50000 Shown to the end."}, []string{"5 error", "6 error"}},
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

// TestOpenEnd checks content TTML presents indefinitely: it keeps being
// shown to the end of the document, so its cue ends 4 s after the
// document's last time (the time every such cue shares), is marked
// ext.ttml.openEnd, and the reader says once that it supplied the end
// (end_supplied, on the first such cue's line). Content that an ancestor
// or a region ends is not open.
func TestOpenEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string // the <body> element, from line 2
		cues []string
		diag string // "line message start", "" for none
	}{
		{"no times at all", `<body><div>
<p>This text must be visible.</p></div></body>`,
			[]string{"0-4000 open This text must be visible."}, "3 the document has no times at all"},
		{"no times, seq body", `<body timeContainer="seq"><div>
<p>This text must be visible.</p></div></body>`,
			[]string{"0-4000 open This text must be visible."}, "3 the document has no times at all"},
		{"open beside timed content", `<body><div>
<p begin="0s">First, never ended</p>
<p begin="5s" end="9s">Second</p></div></body>`,
			[]string{"0-13000 open First, never ended", "5000-9000 Second"}, "3 1 cue(s) have no end anywhere in the document"},
		{"open from the last time", `<body><div><p>
<span begin="1s" end="2s">One</span>
<span begin="3s">Two</span></p></div></body>`,
			[]string{"1000-2000 One", "3000-7000 open Two"}, "2 1 cue(s) have no end"},
		{"several open cues end together", `<body><div>
<p begin="1s">A</p>
<p begin="20s">B</p></div></body>`,
			[]string{"1000-24000 open A", "20000-24000 open B"}, "3 2 cue(s) have no end"},
		{"a seq's last child", `<body><div timeContainer="seq">
<p dur="2s">One</p>
<p>Two</p></div></body>`,
			[]string{"0-2000 One", "2000-6000 open Two"}, "4 1 cue(s) have no end"},
		{"the body's dur ends it", `<body dur="60s"><div>
<p begin="1s">Until the end</p></div></body>`,
			[]string{"1000-60000 Until the end"}, ""},
		{"a div's end ends it", `<body><div end="8s">
<p begin="1s">Until the div ends</p></div></body>`,
			[]string{"1000-8000 Until the div ends"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := "<tt xmlns=\"http://www.w3.org/ns/ttml\" xml:lang=\"en\">\n" + tt.body + "\n</tt>\n"
			tr, diags, err := Parse(strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			var cues []string
			for _, c := range tr.Cues {
				open := ""
				if _, ok := c.Ext[Format]; ok {
					open = "open "
				}
				cues = append(cues, fmt.Sprintf("%d-%d %s%s", c.StartMs, c.EndMs, open, c.Text))
			}
			if strings.Join(cues, "|") != strings.Join(tt.cues, "|") {
				t.Errorf("cues %q, want %q", cues, tt.cues)
			}
			var got []string
			for _, d := range diags {
				if d.Code != caption.CodeEndSupplied || d.Severity != caption.SeverityWarning {
					t.Errorf("unexpected %s %s on line %d: %s", d.Severity, d.Code, d.Line, d.Message)
					continue
				}
				got = append(got, fmt.Sprintf("%d %s", d.Line, d.Message))
			}
			switch {
			case tt.diag == "" && len(got) > 0:
				t.Errorf("diagnostics %q, want none", got)
			case tt.diag != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.diag)):
				t.Errorf("diagnostics %q, want one starting %q", got, tt.diag)
			}
		})
	}
}
