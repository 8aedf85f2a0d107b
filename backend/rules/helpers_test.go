package rules

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// cue builds a cue from start to end ms.
func cue(start, end int64, text string) caption.Cue {
	return caption.Cue{StartMs: start, EndMs: end, Text: text}
}

// track builds a track whose cue i starts on source line 4i+1, as in SRT.
func track(cues ...caption.Cue) *caption.Track {
	for i := range cues {
		cues[i].SourceLine = 4*i + 1
	}
	return &caption.Track{Version: caption.Version, Language: "en", Cues: cues}
}

// want is one expected finding.
type want struct {
	// cue is the expected cue index; -1 for a finding about the track.
	cue int
	// value is the expected Value, checked for rules with a Unit.
	value float64
	// noValue expects a finding with Limit but no Value (rates over 0 ms).
	noValue bool
	// msg is a substring the message must hold, "" for any.
	msg string
}

// rulecase is one table row of a rule test.
type rulecase struct {
	name  string
	track *caption.Track
	limit float64
	// media is the programme's analysis, for the rules that read it.
	media *analysis.Analysis
	want  []want
}

// runRuleCases runs each case against r and compares findings field by field.
func runRuleCases(t *testing.T, r Rule, cases []rulecase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := r.Check(tc.track, Params{Limit: tc.limit, Media: tc.media})
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %+v", len(got), len(tc.want), got)
			}
			for k, w := range tc.want {
				checkFinding(t, r, tc.track, tc.limit, got[k], w)
			}
		})
	}
}

func checkFinding(t *testing.T, r Rule, tr *caption.Track, limit float64, d caption.Diagnostic, w want) {
	t.Helper()
	if got, want := d.Code, r.Code(); got != want {
		t.Errorf("code = %q, want %q", got, want)
	}
	if d.Severity != "" {
		t.Errorf("severity = %q, want empty (the engine sets it)", d.Severity)
	}
	if d.Message == "" || !strings.Contains(d.Message, w.msg) {
		t.Errorf("message = %q, want it to contain %q", d.Message, w.msg)
	}
	if w.cue < 0 {
		if d.CueIndex != nil || d.Line != 0 {
			t.Errorf("track finding has cue index %v, line %d; want none", d.CueIndex, d.Line)
		}
	} else {
		if d.CueIndex == nil || *d.CueIndex != w.cue {
			t.Fatalf("cue index = %v, want %d", ptrStr(d.CueIndex), w.cue)
		}
		if got, want := d.Line, tr.Cues[w.cue].SourceLine; got != want {
			t.Errorf("line = %d, want %d", got, want)
		}
	}
	if r.Unit() == "" {
		if d.Value != nil || d.Limit != nil {
			t.Errorf("rule without unit set value %v, limit %v", d.Value, d.Limit)
		}
		return
	}
	if d.Unit != r.Unit() {
		t.Errorf("unit = %q, want %q", d.Unit, r.Unit())
	}
	if d.Limit == nil || *d.Limit != limit {
		t.Errorf("limit = %v, want %v", ptrStr(d.Limit), limit)
	}
	switch {
	case w.noValue && d.Value != nil:
		t.Errorf("value = %v, want none", *d.Value)
	case !w.noValue && (d.Value == nil || *d.Value != w.value):
		t.Errorf("value = %v, want %v", ptrStr(d.Value), w.value)
	}
}

func ptrStr[T any](p *T) any {
	if p == nil {
		return "nil"
	}
	return *p
}

func f64(v float64) *float64 { return &v }
