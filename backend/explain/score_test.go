package explain

import (
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

func at(cue int, code string, sev caption.Severity) caption.Diagnostic {
	return caption.Diagnostic{Code: code, Severity: sev, CueIndex: &cue}
}

// TestScore checks the documented formula at its corners.
func TestScore(t *testing.T) {
	err, warn := caption.SeverityError, caption.SeverityWarning
	tests := []struct {
		name        string
		rep         engine.Report
		suggestions []caption.Diagnostic
		omitted     int
		clauses     float64
		want        float64
	}{
		{name: "nothing to do", rep: engine.Report{OutputCues: 10}, want: 100},
		{name: "one suggestion in ten cues", rep: engine.Report{OutputCues: 10}, suggestions: []caption.Diagnostic{at(1, "line_too_long", warn)}, want: 98.5},
		{name: "a suggestion on every cue", rep: engine.Report{OutputCues: 2},
			suggestions: []caption.Diagnostic{at(0, "a", warn), at(1, "a", warn), at(1, "b", warn)}, want: 85},
		{name: "omitted suggestions count", rep: engine.Report{OutputCues: 10}, suggestions: []caption.Diagnostic{at(0, "a", warn)}, omitted: 9, want: 85},
		{name: "one blocking cue in ten", rep: engine.Report{OutputCues: 10, Remaining: []caption.Diagnostic{at(3, "overlapping_cues", err)}}, want: 56},
		{name: "every cue blocked", rep: engine.Report{OutputCues: 1, Remaining: []caption.Diagnostic{at(0, "x", err)}}, want: 20},
		{name: "all of it", rep: engine.Report{OutputCues: 1, Remaining: []caption.Diagnostic{at(0, "x", err)}},
			suggestions: []caption.Diagnostic{at(0, "y", warn)}, clauses: 1, want: 0},
		{name: "file-wide problem", rep: engine.Report{OutputCues: 4, Remaining: []caption.Diagnostic{{Code: "no_cues", Severity: err}}}, want: 50},
		{name: "aided warnings are suggestions", rep: engine.Report{OutputCues: 4, Remaining: []caption.Diagnostic{at(0, "a", warn), at(1, "a", warn)}}, want: 92.5},
		{name: "omitted remaining take the listed severity", rep: engine.Report{OutputCues: 10, Remaining: []caption.Diagnostic{at(0, "x", err)},
			Omitted: []engine.Omission{{List: engine.ListRemaining, Code: "x", Count: 4}}}, want: 40},
		{name: "failed clauses", rep: engine.Report{OutputCues: 10}, clauses: 0.5, want: 97.5},
		{name: "no cues", rep: engine.Report{}, want: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The formula rounds; the table gives exact values where they
			// are whole and the unrounded value otherwise.
			got := Score(&tt.rep, tt.suggestions, tt.omitted, tt.clauses)
			want := tt.want
			if want != float64(int(want)) {
				want = float64(int(want + 0.5))
			}
			if got != want {
				t.Errorf("Score = %g; want %g", got, want)
			}
		})
	}
}
