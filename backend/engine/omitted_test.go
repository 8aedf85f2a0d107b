package engine

import (
	"context"
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
)

// TestListsCappedPerCode: by default every list of a result keeps the
// first MaxPerCode entries of each code, in order, and counts the rest
// by list and code; the statuses, summaries and grading are those of the
// whole result, and AllDiagnostics returns every entry.
func TestListsCappedPerCode(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	n := MaxPerCode*2 + 50
	tests := []struct {
		name string
		req  Request
		// lists that must leave entries out ("findings" for a clause's)
		want []string
	}{
		{"warn-only suggestions", Request{Preset: "youtube"},
			[]string{ListDiagnostics, ListSuggestions, ListRemaining}},
		{"enforced and graded", Request{Preset: "generic", Standard: "dcmp"},
			[]string{ListDiagnostics, ListRemaining, ListFindings}},
		{"fixed", Request{Preset: "generic", FixProfile: "auto-split-cps"},
			[]string{ListDiagnostics, ListFixes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Filename, req.Data = "fast.srt", fastSRT(n)
			got, err := eng.Process(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			req.AllDiagnostics = true
			all, err := eng.Process(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Report.Omitted)+len(all.AidedReport.Omitted)+len(all.Omitted) != 0 {
				t.Errorf("AllDiagnostics still omits: %+v %+v %+v", all.Report.Omitted, all.AidedReport.Omitted, all.Omitted)
			}
			if got.DeliveryStatus != all.DeliveryStatus || got.AidedStatus != all.AidedStatus ||
				got.Report.Summary != all.Report.Summary || got.AidedReport.Summary != all.AidedReport.Summary {
				t.Errorf("capping changed the verdict:\n%s %s\n%s %s", got.DeliveryStatus, got.Report.Summary, all.DeliveryStatus, all.Report.Summary)
			}
			if got.Output != all.Output || got.AidedOutput != all.AidedOutput {
				t.Error("capping changed the outputs")
			}
			seen := map[string]bool{}
			code := func(d *caption.Diagnostic) string { return d.Code }
			for _, r := range []struct {
				name     string
				got, all *Report
			}{{"report", got.Report, all.Report}, {"aidedReport", got.AidedReport, all.AidedReport}} {
				om := omissions(r.got.Omitted)
				checkCapped(t, r.name+".diagnostics", r.got.Diagnostics, r.all.Diagnostics, om[[2]string{ListDiagnostics}], code)
				checkCapped(t, r.name+".remaining", r.got.Remaining, r.all.Remaining, om[[2]string{ListRemaining}], code)
				checkCapped(t, r.name+".fixes", r.got.Fixes, r.all.Fixes, om[[2]string{ListFixes}], func(c *fix.Change) string { return c.Code })
				if (r.got.Standard == nil) != (r.all.Standard == nil) {
					t.Fatalf("%s: standard present %v; want %v", r.name, r.got.Standard != nil, r.all.Standard != nil)
				}
				if s := r.got.Standard; s != nil {
					if s.Summary != r.all.Standard.Summary {
						t.Errorf("%s: standard summary %+v; want %+v", r.name, s.Summary, r.all.Standard.Summary)
					}
					for i, cl := range s.Clauses {
						checkCapped(t, r.name+".standard "+cl.ID, cl.Findings, r.all.Standard.Clauses[i].Findings, om[[2]string{ListFindings, cl.ID}], code)
						if cl.Status != r.all.Standard.Clauses[i].Status {
							t.Errorf("%s: clause %s %s; want %s", r.name, cl.ID, cl.Status, r.all.Standard.Clauses[i].Status)
						}
					}
				}
				for _, o := range r.got.Omitted {
					seen[o.List] = true
				}
			}
			checkCapped(t, "suggestions", got.Suggestions, all.Suggestions, omissions(got.Omitted)[[2]string{ListSuggestions}], code)
			for _, o := range got.Omitted {
				seen[o.List] = true
			}
			for _, l := range tt.want {
				if !seen[l] {
					t.Errorf("nothing omitted from %s; want it capped (omitted: %v)", l, seen)
				}
			}
			// Both capped reports list the same input diagnostics.
			if !sameList(got.Report.Diagnostics, got.AidedReport.Diagnostics) {
				t.Error("the capped reports list different diagnostics")
			}
			sameAsEncodingJSON(t, got)
		})
	}
}

// omissions indexes a report's omissions by list and clause, then code.
func omissions(om []Omission) map[[2]string]map[string]int {
	out := map[[2]string]map[string]int{}
	for _, o := range om {
		k := [2]string{o.List, o.Clause}
		if out[k] == nil {
			out[k] = map[string]int{}
		}
		if _, dup := out[k][o.Code]; dup {
			panic("code omitted twice from one list: " + o.Code)
		}
		out[k][o.Code] = o.Count
	}
	return out
}

// checkCapped checks that got is the first MaxPerCode entries of each code
// of all, in all's order, and that omitted counts the rest of each code.
func checkCapped[T any](t *testing.T, name string, got, all []T, omitted map[string]int, code func(*T) string) {
	t.Helper()
	var want []T
	count := map[string]int{}
	for i := range all {
		k := code(&all[i])
		if count[k]++; count[k] <= MaxPerCode {
			want = append(want, all[i])
		}
	}
	if len(want) != len(got) || len(got) > 0 && !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %d entries kept; want the first %d of each code, %d in all", name, len(got), MaxPerCode, len(want))
	}
	if (got == nil) != (all == nil) {
		t.Errorf("%s: nil %v; want %v", name, got == nil, all == nil)
	}
	for k, n := range count {
		if left := max(n-MaxPerCode, 0); omitted[k] != left {
			t.Errorf("%s: %d %s omitted; want %d", name, omitted[k], k, left)
		}
	}
	for k := range omitted {
		if count[k] <= MaxPerCode {
			t.Errorf("%s: %s counted as omitted with %d entries", name, k, count[k])
		}
	}
}

// TestCapByCode: the first max of each code in order, and a list that
// needs no cap is returned itself.
func TestCapByCode(t *testing.T) {
	t.Parallel()
	id := func(s *string) string { return (*s)[:1] }
	list := []string{"a1", "b1", "a2", "c1", "a3", "b2", "b3", "b4"}
	got, counts := capByCode(list, 2, id)
	if want := []string{"a1", "b1", "a2", "c1", "b2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v; want %v", got, want)
	}
	if want := []codeCount{{"a", 3}, {"b", 4}, {"c", 1}}; !reflect.DeepEqual(counts, want) {
		t.Errorf("counts %v; want %v", counts, want)
	}
	same, counts := capByCode(list, 4, id)
	if &same[0] != &list[0] || counts != nil {
		t.Errorf("a list within the cap was copied or counted: %v", counts)
	}
	if got, counts := capByCode([]string(nil), 1, id); got != nil || counts != nil {
		t.Error("nil list not kept nil")
	}
}
