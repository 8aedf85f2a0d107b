package engine

import (
	"context"
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
)

// newProblems compares by source cue: a code the delivery's cues of the
// source have not, or more blocking findings of a code; a suggestion
// found on two pieces of a split cue, as on the delivery's one cue, is
// the same problem; findings on no cue are compared by count.
func TestNewProblems(t *testing.T) {
	t.Parallel()
	p, err := newTestEngine(t).presets.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	on := func(cue int, code string, sev caption.Severity) caption.Diagnostic {
		return caption.Diagnostic{Code: code, Severity: sev, CueIndex: &cue}
	}
	whole := func(code string) caption.Diagnostic {
		return caption.Diagnostic{Code: code, Severity: caption.SeverityError}
	}
	e, w := caption.SeverityError, caption.SeverityWarning
	// The delivery keeps the two source cues; the aided output splits
	// source cue 0 in two pieces.
	delivery := shaped{track: &caption.Track{Cues: make([]caption.Cue, 2)}}
	aided := shaped{track: &caption.Track{Cues: make([]caption.Cue, 3)}, sources: []int{0, 0, 1}}
	tests := []struct {
		name     string
		d, a     []caption.Diagnostic
		want     map[int]problem
		wantFile string
	}{
		{"nothing new", []caption.Diagnostic{on(0, "reading_speed_high", e)}, []caption.Diagnostic{on(1, "reading_speed_high", e)}, nil, ""},
		{"a suggestion on both pieces", []caption.Diagnostic{on(0, "gap_too_small", w)},
			[]caption.Diagnostic{on(0, "gap_too_small", w), on(1, "gap_too_small", w)}, nil, ""},
		{"a code the delivery has not", nil, []caption.Diagnostic{on(2, "line_unbalanced", w)}, map[int]problem{1: {code: "line_unbalanced"}}, ""},
		{"more blocking findings", []caption.Diagnostic{on(0, "overlapping_cues", e)},
			[]caption.Diagnostic{on(0, "overlapping_cues", e), on(1, "overlapping_cues", e)}, map[int]problem{0: {code: "overlapping_cues", more: true}}, ""},
		{"the whole file", nil, []caption.Diagnostic{whole(caption.CodeNoCues)}, nil, caption.CodeNoCues},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, file := newProblems(p, 2, &produced{after: tt.d, shaped: delivery}, &produced{after: tt.a, shaped: aided})
			if !reflect.DeepEqual(got, tt.want) || file != tt.wantFile {
				t.Errorf("newProblems = %v, %q; want %v, %q", got, file, tt.want, tt.wantFile)
			}
		})
	}
}

// When the aided output has a problem of the whole file the delivery has
// not, the aided output is the delivery, with a change that says why.
func TestKeepDeliveryWholeFile(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	p, err := eng.presets.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	src := &caption.Track{Cues: []caption.Cue{{StartMs: 0, EndMs: 1000, Text: "Hi"}}}
	in := &input{opts: options{preset: p}, source: src}
	d := &produced{output: "delivery", changes: []fix.Change{}, shaped: shaped{track: src}}
	a := &produced{output: "aided", after: []caption.Diagnostic{{Code: caption.CodeNoCues, Severity: caption.SeverityError}},
		shaped: shaped{track: &caption.Track{Cues: []caption.Cue{}}}}
	got, err := eng.keepDelivery(context.Background(), in, d, a)
	if err != nil {
		t.Fatal(err)
	}
	want := []fix.Change{{Code: caption.CodeNoCues, CueIndex: fix.FileLevel, Action: actionKeepDelivery,
		Message: "the aided output is the delivery: its own fixes gave it no_cues, which the delivery has not"}}
	if got.output != "delivery" || !reflect.DeepEqual(got.changes, want) || len(d.changes) != 0 {
		t.Errorf("aided output %q with changes %+v (the delivery's now %+v); want the delivery with %+v", got.output, got.changes, d.changes, want)
	}
}
