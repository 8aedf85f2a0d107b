package explain

import (
	"errors"
	"testing"
)

// TestCheckProse: a model's prose is taken only when every action it
// rewords is the plan's and every cue it names is in the file.
func TestCheckProse(t *testing.T) {
	d := &Draft{Explanation: &Explanation{Actions: []Action{{ID: "a1"}, {ID: "a2"}}}, CueCount: 12}
	tests := []struct {
		name string
		p    Prose
		want string // the fallback reason; "" accepted
	}{
		{name: "plain", p: Prose{Headline: "Two steps before delivery", Actions: []ActionProse{{ID: "a2", Title: "Fix timing"}}}},
		{name: "first and last cue", p: Prose{Message: "Start at cue 1 and end at Cue #12."}},
		{name: "a list", p: Prose{ClientSummary: "See cues 3, 5 and 9."}},
		{name: "a range", p: Prose{PlatformNotes: "cues 10-12 read fast", AlreadyFixedSummary: "cues 2–4 were split"}},
		{name: "numbers that are not cues", p: Prose{Message: "42 characters per line, 20 cps, 3 steps."}},
		{name: "cue 0", p: Prose{Message: "cue 0 is fast"}, want: FallbackInventedCues},
		{name: "past the end", p: Prose{Message: "cue 13 is fast"}, want: FallbackInventedCues},
		{name: "in a list", p: Prose{Message: "cues 3 and 400"}, want: FallbackInventedCues},
		{name: "end of a range", p: Prose{ComparisonSummary: "cues 10 to 13"}, want: FallbackInventedCues},
		{name: "in an action", p: Prose{Actions: []ActionProse{{ID: "a1", Detail: "cue 99 overlaps"}}}, want: FallbackInventedCues},
		{name: "an action the plan lacks", p: Prose{Actions: []ActionProse{{ID: "a3", Title: "Translate"}}}, want: FallbackInventedActions},
		{name: "a huge number", p: Prose{Message: "cue 99999999999999999999"}, want: FallbackInventedCues},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkProse(&tt.p, d)
			got := ""
			if err != nil {
				var inv *invented
				if !errors.As(err, &inv) {
					t.Fatalf("error %v is not an invented answer", err)
				}
				got = fallbackOf(err)
			}
			if got != tt.want {
				t.Errorf("checkProse = %q (%v); want %q", got, err, tt.want)
			}
		})
	}
}
