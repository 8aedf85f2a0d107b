package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
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

// TestCorpusAidedNoWorse: over the corpus's text formats, for presets
// with and without enforced layout limits and every profile that edits,
// the aided report never holds more blocking findings (severity error)
// of a code than the delivery's, nor a finding of a code the delivery
// has neither as a problem nor as a suggestion.
func TestCorpusAidedNoWorse(t *testing.T) {
	eng := newTestEngine(t)
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		for _, p := range []string{"youtube", "generic", "tiktok", "lms"} {
			for _, prof := range []string{"layout-preserve-breaks", "auto-split-sentences", "auto-split-cps"} {
				res, err := eng.Process(context.Background(), Request{Filename: c.Name, Data: c.Input, Preset: p, FixProfile: prof, AllDiagnostics: true})
				if err != nil {
					return // not a file the engine delivers: the readers' tests cover it
				}
				if bad := worseAided(res); len(bad) > 0 {
					t.Errorf("%s, %s: the aided output is worse: %s", p, prof, strings.Join(bad, "; "))
				}
			}
		}
	}, ".srt", ".vtt", ".sbv", ".ass", ".ttml", ".scc")
}

// worseAided lists what makes res's aided output worse than its delivery.
func worseAided(res *Result) []string {
	blocking := func(ds []caption.Diagnostic) map[string]int {
		m := map[string]int{}
		for _, d := range ds {
			if d.Severity == caption.SeverityError {
				m[d.Code]++
			}
		}
		return m
	}
	var bad []string
	db, ab := blocking(res.Report.Remaining), blocking(res.AidedReport.Remaining)
	for c, n := range ab {
		if n > db[c] {
			bad = append(bad, fmt.Sprintf("%d blocking %s, the delivery %d", n, c, db[c]))
		}
	}
	has := codes(res.Report.Remaining, res.Suggestions)
	seen := map[string]bool{}
	for _, d := range res.AidedReport.Remaining {
		if !has[d.Code] && !seen[d.Code] {
			seen[d.Code] = true
			bad = append(bad, fmt.Sprintf("%s, which the delivery has not (%s)", d.Code, d.Message))
		}
	}
	sort.Strings(bad)
	return bad
}

// Where the aided fixes still give a cue a problem the delivery's has
// not, the aided output keeps the delivery's cue and says so (action
// keep_delivery), and is no worse than the delivery.
func TestAidedKeepsDeliveryCue(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	tests := []struct {
		name, preset, profile, in string
		wantCue                   int
		wantCode, wantText        string
	}{
		// Split to meet the 2 lines YouTube suggests, a piece reads too
		// fast: the delivery's cue has 3 lines but a reading speed within
		// the limit.
		{"a split that reads too fast", "youtube", "auto-split-sentences",
			"1\n00:00:09,209 --> 00:00:12,312\n( clock ticking )\n\n2\n00:00:14,848 --> 00:00:17,000\nMAN:\nWhen we think\nof \"E equals m c-squared\",\n\n3\n00:00:17,000 --> 00:00:18,752\nwe have this vision of Einstein\n",
			1, "reading_speed_high", "MAN:\nWhen we think\nof \"E equals m c-squared\","},
		// Split to meet a suggested duration, the pieces of a cue that
		// overlaps another overlap it twice.
		{"pieces that overlap more", "generic", "auto-split-sentences",
			"1\n00:00:00,000 --> 00:00:10,000\nThis is a test subtitle\n\n2\n00:00:00,000 --> 00:00:10,000\nThis is another test subtitle\n",
			1, "overlapping_cues", "00:00:00,000 --> 00:00:10,000\nThis is another test subtitle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := eng.Process(context.Background(), Request{Data: []byte(tt.in), Preset: tt.preset, FixProfile: tt.profile, AllDiagnostics: true})
			if err != nil {
				t.Fatal(err)
			}
			kept := false
			for _, c := range res.AidedReport.Fixes {
				if c.Action == actionKeepDelivery && c.CueIndex == tt.wantCue && c.Code == tt.wantCode {
					kept = true
				}
			}
			if !kept {
				t.Errorf("no %s change for cue %d (%s) among %+v", actionKeepDelivery, tt.wantCue, tt.wantCode, res.AidedReport.Fixes)
			}
			if !strings.Contains(res.AidedOutput, tt.wantText) {
				t.Errorf("the aided output lacks the delivery's %q:\n%s", tt.wantText, res.AidedOutput)
			}
			if bad := worseAided(res); len(bad) > 0 {
				t.Errorf("the aided output is worse: %s", strings.Join(bad, "; "))
			}
		})
	}
}
