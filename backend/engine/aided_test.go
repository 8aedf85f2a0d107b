package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// An 83-character line at a 42-character limit: the aided output, which
// also aims at the preset's suggestions, must not trade the line length
// the delivery breaks too for too_many_lines, which the delivery does not
// break. The first two lines fit no two lines of 42 at a space; the third
// does, but only with a bad break.
func TestAidedLongLineAddsNoProblem(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	lines := []string{
		"The quick brown fox jumps over the lazy dog while the farmer watches from the barn.",
		"I told you that I would be there at the station before nine o'clock in the morning.",
		"We need to get to the harbour before the tide turns, or the boats will all be gone.",
	}
	for _, line := range lines {
		if n := len([]rune(line)); n != 83 {
			t.Fatalf("%q has %d characters", line, n)
		}
	}
	// Every preset whose line limit is 42 with two lines; generic
	// enforces both, so its aided output is its delivery.
	for _, p := range []string{"youtube", "facebook", "vimeo", "linkedin", "lms", "zoom", "generic"} {
		for _, prof := range []string{"layout-preserve-breaks", "auto-split-sentences", "auto-split-cps"} {
			for i, line := range lines {
				t.Run(fmt.Sprintf("%s/%s/%d", p, prof, i+1), func(t *testing.T) {
					t.Parallel()
					src := "1\n00:00:01,000 --> 00:00:05,000\n" + line + "\n"
					res, err := eng.Process(context.Background(), Request{Data: []byte(src), Preset: p, FixProfile: prof, AllDiagnostics: true})
					if err != nil {
						t.Fatal(err)
					}
					has := codes(res.Report.Remaining, res.Suggestions)
					for _, d := range res.AidedReport.Remaining {
						if !has[d.Code] {
							t.Errorf("the aided output has %s, which the delivery has not: %s\naided output:\n%s", d.Code, d.Message, res.AidedOutput)
						}
					}
				})
			}
		}
	}
}

func codes(lists ...[]caption.Diagnostic) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, d := range l {
			m[d.Code] = true
		}
	}
	return m
}
