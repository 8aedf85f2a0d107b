package explain

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

// The plan sends an editor to the enhanced delivery only when it has no
// problem the upload-ready one has not (#29 point 8): on YouTube the
// aided re-wrap of an over-long line into 3 lines, labelled Needs
// attention, fixed the line length but added too_many_lines; the plan
// said to deliver it. A better enhanced delivery is still recommended.
func TestPlanNeverRecommendsWorseAided(t *testing.T) {
	t.Parallel()
	p, err := loadPresets(t).Lookup("youtube")
	if err != nil {
		t.Fatal(err)
	}
	err0, warn := caption.SeverityError, caption.SeverityWarning
	long, fast := at(0, "line_too_long", warn), at(0, "reading_speed_high", warn)
	tests := []struct {
		name      string
		aided     []caption.Diagnostic
		wantAided bool // the plan recommends the enhanced delivery
	}{
		{"a suggestion the delivery has not", []caption.Diagnostic{at(0, "too_many_lines", warn), fast}, false},
		{"a blocking problem the delivery has not", []caption.Diagnostic{at(0, "overlapping_cues", err0)}, false},
		{"no worse", []caption.Diagnostic{fast}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &Input{
				Report:      &engine.Report{Preset: "youtube", FixProfile: "layout-preserve-breaks", OutputFormat: "srt", InputFormat: "srt", InputCues: 1, OutputCues: 1, Remaining: []caption.Diagnostic{}},
				AidedReport: &engine.Report{Preset: "youtube", FixProfile: "layout-preserve-breaks", OutputFormat: "srt", InputFormat: "srt", InputCues: 1, OutputCues: 1, Remaining: tt.aided},
				Suggestions: []caption.Diagnostic{long, fast}, HasSuggestions: true,
			}
			x := Build(in, p)
			recommended := false
			for _, a := range x.Actions {
				if strings.Contains(a.Detail, "enhanced delivery (aidedOutput) already does this") {
					recommended = true
				}
			}
			if recommended != tt.wantAided {
				t.Errorf("the plan recommends the enhanced delivery: %v; want %v\n%+v", recommended, tt.wantAided, x.Actions)
			}
			if sum := x.DeliveryComparison.Summary; !tt.wantAided && !strings.Contains(sum, "deliver the upload-ready file") {
				t.Errorf("comparison %q does not say to deliver the upload-ready file", sum)
			}
		})
	}
}
