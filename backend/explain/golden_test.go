package explain

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/internal/golden"
	"github.com/captionqa/captionqa/backend/preset"
)

// result is the part of a process result an explanation reads, as the
// engine's golden cases hold it (want.report.json).
type result struct {
	Report              *engine.Report       `json:"report"`
	AidedReport         *engine.Report       `json:"aidedReport"`
	AidedSameAsDelivery bool                 `json:"aidedSameAsDelivery"`
	Suggestions         []caption.Diagnostic `json:"suggestions"`
	Omitted             []engine.Omission    `json:"omitted"`
}

func (r *result) input() Input {
	res := engine.Result{Report: r.Report, AidedReport: r.AidedReport, AidedSameAsDelivery: r.AidedSameAsDelivery,
		Suggestions: r.Suggestions, Omitted: r.Omitted}
	return FromResult(&res)
}

func loadPresets(tb testing.TB) *preset.Set {
	tb.Helper()
	s, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// engineCases returns the engine's golden results that are process
// results (not refusals), by case name.
func engineCases(tb testing.TB) map[string]*result {
	tb.Helper()
	files, err := filepath.Glob("../engine/testdata/*/want.report.json")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no engine golden cases: %v", err)
	}
	out := map[string]*result{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var r result
		if err := json.Unmarshal(b, &r); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if r.Report != nil {
			out[filepath.Base(filepath.Dir(f))] = &r
		}
	}
	return out
}

// TestGolden: the built-in explanation of every engine golden case is
// the one in testdata/<case>.json, and the same on a second run.
func TestGolden(t *testing.T) {
	x := New(Options{Presets: loadPresets(t)})
	cases := engineCases(t)
	if len(cases) < 40 {
		t.Fatalf("only %d engine cases to explain", len(cases))
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in := r.input()
			first, err := x.Explain(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(first, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			again, _ := x.Explain(context.Background(), &in)
			if b, _ := json.MarshalIndent(again, "", "  "); !bytes.Equal(append(b, '\n'), got) {
				t.Error("a second explanation of the same report differs")
			}
			checkShape(t, first, &in)
			golden.Compare(t, filepath.Join("testdata", name+".json"), got)
		})
	}
}

// checkShape checks what every explanation promises: its format, status
// clear exactly when there is nothing to do, actions in priority order
// with ids a1.., cue indexes in order and in the file, scores in 0..100,
// and every prose field written.
func checkShape(t *testing.T, e *Explanation, in *Input) {
	t.Helper()
	if e.Format != Format || e.WrittenBy != WrittenByBuiltin {
		t.Errorf("format %q, writtenBy %q", e.Format, e.WrittenBy)
	}
	if (e.Status == StatusClear) != (len(e.Actions) == 0) || (e.Status != StatusClear && e.Status != StatusActions) {
		t.Errorf("status %q with %d actions", e.Status, len(e.Actions))
	}
	for i, a := range e.Actions {
		if a.ID != "a"+strconv.Itoa(i+1) {
			t.Errorf("action %d has id %q", i, a.ID)
		}
		if i > 0 && a.Priority < e.Actions[i-1].Priority {
			t.Errorf("action %s (priority %d) after priority %d", a.ID, a.Priority, e.Actions[i-1].Priority)
		}
		if a.Blocking != (a.Priority == PriorityBlocking) || a.Title == "" || a.Detail == "" || a.Owner == "" || a.EffortMinutes < 1 {
			t.Errorf("action %+v", a)
		}
		if !slices.IsSorted(a.CueIndexes) || len(a.CueIndexes) > a.Count {
			t.Errorf("action %s: cue indexes %v, count %d", a.ID, a.CueIndexes, a.Count)
		}
		for _, c := range a.CueIndexes {
			if c < 0 || c >= in.cueCount() {
				t.Errorf("action %s names cue index %d of %d", a.ID, c, in.cueCount())
			}
		}
		if a.AutoFixable != (a.FixProfile != "") {
			t.Errorf("action %s: autoFixable %v, fixProfile %q", a.ID, a.AutoFixable, a.FixProfile)
		}
	}
	c := e.DeliveryComparison
	for _, s := range []float64{c.UploadReadyScore, c.EnhancedScore} {
		if s < 0 || s > 100 {
			t.Errorf("score %g", s)
		}
	}
	for name, s := range map[string]string{"headline": e.Headline, "message": e.Message, "clientSummary": e.ClientSummary,
		"platformNotes": e.PlatformNotes, "alreadyFixedSummary": e.AlreadyFixedSummary, "summary": c.Summary} {
		if s == "" {
			t.Errorf("%s is empty", name)
		}
	}
	p := Prose{Headline: e.Headline, Message: e.Message, ClientSummary: e.ClientSummary, PlatformNotes: e.PlatformNotes,
		AlreadyFixedSummary: e.AlreadyFixedSummary, ComparisonSummary: c.Summary}
	for _, a := range e.Actions {
		p.Actions = append(p.Actions, ActionProse{ID: a.ID, Title: a.Title, Detail: a.Detail})
	}
	if d := checkProse(&p, &Draft{Explanation: e, CueCount: in.cueCount()}); d != nil {
		t.Errorf("the built-in prose fails the check a model's must pass: %v", d)
	}
}
