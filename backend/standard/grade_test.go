package standard

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// inputs is a spread of inputs every catalogue must grade completely.
func inputs() map[string]Input {
	bad := cleanInput("srt")
	bad.Delivery.Cues[0].Text = "THIS LINE IS FAR TOO LONG FOR THIRTY-TWO COLUMNS"
	bad.Delivery.Cues[1].EndMs = bad.Delivery.Cues[1].StartMs
	return map[string]Input{
		"clean srt":      cleanInput("srt"),
		"clean ttml":     cleanInput("ttml"),
		"no source":      {Delivery: cleanTrack(), OutputFormat: "vtt"},
		"nil delivery":   {},
		"empty delivery": {Delivery: track(), OutputFormat: "srt", Reparse: &Reparse{Track: track()}},
		"broken":         bad,
	}
}

func TestEveryClauseReported(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	for _, id := range s.IDs() {
		cat, _ := s.Lookup(id)
		for name, in := range inputs() {
			r, err := s.Grade(id, in)
			if err != nil {
				t.Fatalf("%s/%s: %v", id, name, err)
			}
			if len(r.Clauses) != len(cat.Clauses) {
				t.Fatalf("%s/%s: %d clauses reported, catalogue has %d", id, name, len(r.Clauses), len(cat.Clauses))
			}
			var sum Summary
			for k, c := range r.Clauses {
				if c.ID != cat.Clauses[k].ID {
					t.Errorf("%s/%s: clause %d is %q, want %q", id, name, k, c.ID, cat.Clauses[k].ID)
				}
				if c.Findings == nil {
					t.Errorf("%s/%s/%s: findings is nil, want []", id, name, c.ID)
				}
				switch c.Status {
				case StatusPass:
					sum.Pass++
				case StatusFail:
					sum.Fail++
					if !hasError(c.Findings) {
						t.Errorf("%s/%s/%s: fail without an error finding", id, name, c.ID)
					}
				case StatusNotEvaluated:
					sum.NotEvaluated++
					if c.Reason == "" {
						t.Errorf("%s/%s/%s: not_evaluated without a reason", id, name, c.ID)
					}
				default:
					t.Errorf("%s/%s/%s: status %q", id, name, c.ID, c.Status)
				}
				if c.Status != StatusNotEvaluated && c.Reason != "" {
					t.Errorf("%s/%s/%s: %s with reason %q", id, name, c.ID, c.Status, c.Reason)
				}
				for _, f := range c.Findings {
					if f.Severity == "" || f.Code == "" || f.Message == "" {
						t.Errorf("%s/%s/%s: incomplete finding %+v", id, name, c.ID, f)
					}
				}
			}
			if sum != r.Summary {
				t.Errorf("%s/%s: summary %+v, counted %+v", id, name, r.Summary, sum)
			}
		}
	}
}

func hasError(fs []caption.Diagnostic) bool {
	for _, f := range fs {
		if f.Severity == caption.SeverityError {
			return true
		}
	}
	return false
}

func TestFCCAccuracyNeverPasses(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	for name, in := range inputs() {
		c := clauseOf(t, s, "fcc-79.1", "79.1(j)(2)(i)", in)
		if c.Status != StatusNotEvaluated || c.Reason == "" {
			t.Errorf("%s: accuracy = %s (reason %q), want not_evaluated with a reason", name, c.Status, c.Reason)
		}
		for _, f := range c.Findings {
			if f.Severity != caption.SeverityInfo {
				t.Errorf("%s: accuracy finding %s has severity %s, want info", name, f.Code, f.Severity)
			}
		}
	}
	// Even a catalogue that forgot the kind's behaviour keeps the promise
	// through neverPass.
	cat := &Catalogue{ID: "x", Clauses: []ClauseSpec{{ID: "a", Kind: KindChecks, PassWhenHeld: true, NeverPass: true, Reason: "needs audio",
		Checks: []Check{{Rule: "empty_cue"}}}}}
	if r := Grade(cat, cleanInput("srt")); r.Clauses[0].Status != StatusNotEvaluated || r.Clauses[0].Reason != "needs audio" {
		t.Errorf("neverPass clause = %+v, want not_evaluated", r.Clauses[0])
	}
}

func TestAccuracyFindings(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	in := cleanInput("srt")
	in.Delivery.Cues[0].Text = "So  we went [inaudible] there."
	in.Delivery.Cues[1].Text = " "
	c := clauseOf(t, s, "fcc-79.1", "79.1(j)(2)(i)", in)
	got, want := codes(c.Findings), []string{"doubled_space", "placeholder_text", "empty_cue"}
	if !equal(got, want) || c.Status != StatusNotEvaluated {
		t.Errorf("accuracy = %s %v, want not_evaluated %v", c.Status, got, want)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	for _, id := range s.IDs() {
		for name, in := range inputs() {
			a, _ := s.Grade(id, in)
			b, _ := s.Grade(id, in)
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("%s/%s: two gradings differ", id, name)
			}
		}
	}
}

func TestReportJSON(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	r, _ := s.Grade("dcmp", cleanInput("srt"))
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ID      string         `json:"id"`
		Summary map[string]int `json:"summary"`
		Clauses []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != "dcmp" || len(got.Summary) != 3 {
		t.Errorf("report = %s", b)
	}
	for _, c := range got.Clauses {
		for _, k := range []string{"id", "title", "requirement", "status", "findings"} {
			if _, ok := c[k]; !ok {
				t.Errorf("clause %s lacks %q", c["id"], k)
			}
		}
		if string(c["status"]) == `"pass"` {
			if _, ok := c["reason"]; ok {
				t.Errorf("passed clause %s has a reason", c["id"])
			}
		}
	}
}

// TestCleanSample pins the statuses of a clean, unchanged SRT delivery.
func TestCleanSample(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	want := map[string]Summary{
		"wcag-2.1-aa": {Pass: 2, NotEvaluated: 9},
		"en-301-549":  {Pass: 3, NotEvaluated: 12},
		"fcc-79.1":    {Pass: 1, NotEvaluated: 6},
		"dcmp":        {Pass: 7, NotEvaluated: 8},
	}
	for id, w := range want {
		r, _ := s.Grade(id, cleanInput("srt"))
		if r.Summary != w {
			for _, c := range r.Clauses {
				t.Logf("%s %s %s %v %s", id, c.ID, c.Status, codes(c.Findings), c.Reason)
			}
			t.Errorf("%s summary = %+v, want %+v", id, r.Summary, w)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
