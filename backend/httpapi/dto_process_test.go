package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/grant"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// TestWriteProcessResponse: the process response, streamed or (?pretty)
// indented, decodes to what encoding/json makes of the same value, account
// fields included, for every combination of the optional ones.
func TestWriteProcessResponse(t *testing.T) {
	cue, value, limit := 3, 23.45, 20.0
	diags := []caption.Diagnostic{
		{Code: "reading_speed_high", Severity: caption.SeverityWarning, Line: 12, CueIndex: &cue, Message: "reading speed 23.5 \"fast\" <b>", Value: &value, Limit: &limit, Unit: "cps"},
		{Code: "encoding_not_utf8", Severity: caption.SeverityError, Message: "read as Windows-1252\n"},
	}
	rep := &engine.Report{
		Summary: "Ready — mostly.", Preset: "youtube", FixProfile: "warn-only", InputFormat: "srt", OutputFormat: "vtt",
		Encoding: "utf-8", InputCues: 4, OutputCues: 5, Diagnostics: diags, Remaining: diags[:1],
		Fixes:    []fix.Change{{Code: "strip_styling", CueIndex: 1, Action: "strip", Message: "removed for this platform: styling"}},
		Counting: "grapheme clusters", PlatformNotes: []string{"note one", "note two"},
		Standard: &standard.Report{ID: "dcmp", Title: "DCMP", Version: "2024", Summary: standard.Summary{Pass: 1, Fail: 1},
			Clauses: []standard.Clause{
				{ID: "1", Title: "Line length", Requirement: "≤ 32", Status: standard.StatusFail, Findings: diags, Checks: []string{"line_too_long ≤ 32 chars"}},
				{ID: "2", Title: "Accuracy", Requirement: "verbatim", Status: standard.StatusNotEvaluated, Findings: []caption.Diagnostic{}, Reason: "needs the audio"},
			}},
	}
	res := &engine.Result{
		Report: rep, Output: "WEBVTT\n\n00:00.000 --> 00:01.000\nHi \u2028 there\n", AidedOutput: "", AidedReport: &engine.Report{},
		Suggestions: diags, AidedSameAsDelivery: false, DeliveryStatus: engine.WillAdapt, AidedStatus: engine.NeedsAttention,
	}
	runs := 7
	for _, url := range []string{"/api/v1/process", "/api/v1/process?pretty"} {
		for _, out := range []processResponse{
			newProcessResponse(res, grant.Outcome{}),
			newProcessResponse(res, grant.Outcome{Skipped: grant.SkipNotConfigured}),
			newProcessResponse(res, grant.Outcome{Available: true, Explanation: &explain.Explanation{
				Format: explain.Format, Status: explain.StatusActions, WrittenBy: explain.WrittenByBuiltin, Headline: "Not \"ready\"  ",
				Actions: []explain.Action{{ID: "a1", Kind: explain.KindFixTiming, CueIndexes: []int{0, 3}, Codes: []string{"overlapping_cues"}, Clauses: []string{}}},
			}}),
			func() processResponse {
				r := newProcessResponse(res, grant.Outcome{Skipped: grant.SkipNotEntitled})
				r.RemainingAPIRunsToday = &runs
				return r
			}(),
			func() processResponse {
				r := newProcessResponse(res, grant.Outcome{})
				r.RemainingToday = &runs
				return r
			}(),
		} {
			rec := httptest.NewRecorder()
			c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, url, nil), rec)
			if err := writeProcessResponse(c, out); err != nil {
				t.Fatal(err)
			}
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != echo.MIMEApplicationJSON {
				t.Errorf("status %d, content type %q", rec.Code, rec.Header().Get("Content-Type"))
			}
			want, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(want, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
				t.Fatalf("invalid JSON: %v\n%s", err, rec.Body.Bytes())
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: response differs:\nencoding/json %s\nsent          %s", url, want, rec.Body.Bytes())
			}
			if indented := strings.Contains(rec.Body.String(), "\n  \""); indented != strings.HasSuffix(url, "?pretty") {
				t.Errorf("%s: indented %v", url, indented)
			}
		}
	}
}
