package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
)

const plainSRT = "1\n00:00:01,000 --> 00:00:03,500\nHello there.\n\n2\n00:00:04,000 --> 00:00:06,000\nBye.\n"

const fastSRT = "1\n00:00:01,000 --> 00:00:01,500\nThis line is far too long to be read in half a second.\n"

func TestProcessFile(t *testing.T) {
	t.Parallel()
	clean := writeFile(t, "clean.srt", plainSRT)
	styled := writeFile(t, "styled.srt", sampleSRT)
	fast := writeFile(t, "fast.srt", fastSRT)
	empty := writeFile(t, "empty.srt", "")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStatus string // deliveryStatus, or the error code for an envelope
	}{
		{"clean file is ready", []string{"process", clean}, 0, "ready"},
		{"styled file adapts on youtube", []string{"process", styled}, 0, "will_adapt"},
		{"styled file is ready on html5", []string{"process", styled, "--preset", "html5"}, 0, "ready"},
		{"fast file needs attention", []string{"process", fast, "--preset", "generic"}, 3, "needs_attention"},
		{"with a standard", []string{"process", clean, "--standard", "dcmp"}, 0, "ready"},
		{"no cues", []string{"process", empty}, 1, "processing_failed"},
		{"unknown preset", []string{"process", clean, "--preset", "myspace"}, 2, "bad_request"},
		{"unknown standard", []string{"process", clean, "--standard", "iso-9001"}, 2, "bad_request"},
		{"unknown fix profile", []string{"process", clean, "--fix-profile", "magic"}, 2, "bad_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit = %d; want %d\n%s\n%s", code, tt.wantCode, out, errOut)
			}
			// Stdout is the result or the error envelope: one view of
			// both, error a pointer to tell which.
			var res struct {
				engine.Result
				Error *apperr.Body `json:"error"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			got := string(res.DeliveryStatus)
			if res.Error != nil {
				got = res.Error.Code
				if res.Error.Message == "" {
					t.Error("error envelope without a message")
				}
			} else if res.Report == nil || res.Report.Summary == "" || res.Output == "" {
				t.Errorf("result lacks a summary or an output: %s", out)
			}
			if got != tt.wantStatus {
				t.Errorf("status = %q; want %q", got, tt.wantStatus)
			}
			if tt.name == "with a standard" && (res.Report == nil || res.Report.Standard == nil || len(res.Report.Standard.Clauses) == 0) {
				t.Error("no standard clauses in the report")
			}
		})
	}
}

func TestProcessOut(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "in.srt", sampleSRT)
	out := filepath.Join(t.TempDir(), "delivery.vtt")
	if code, _, errOut := run(t, "", "process", in, "--preset", "html5", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "WEBVTT") {
		t.Fatalf("--out wrote %q, %v", b, err)
	}
}

// TestProcessFileErrors: a file that cannot be read, or a delivery that
// cannot be written, is reported as the API's envelope on stdout too.
func TestProcessFileErrors(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "in.srt", sampleSRT)
	for _, tc := range []struct {
		args  []string
		field string
	}{
		{[]string{"process", filepath.Join(t.TempDir(), "missing.srt")}, "file"},
		{[]string{"process", in, "--out", filepath.Join(t.TempDir(), "no", "such", "dir", "out.srt")}, "out"},
	} {
		code, out, _ := run(t, "", tc.args...)
		var env apperr.Envelope
		if err := json.Unmarshal([]byte(out), &env); err != nil || code != 2 || env.Error.Code != "bad_request" || env.Error.Details["field"] != tc.field {
			t.Errorf("%v: exit %d, stdout %q (%v); want 2 with a bad_request envelope naming %s", tc.args, code, out, err, tc.field)
		}
	}
}

func TestProcessDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a/clean.srt":     sampleSRT,
		"b/fast.srt":      fastSRT,
		"notes.txt":       "not captions",
		"data.json":       `{"unrelated": true}`,
		"c/ir.json":       `{"version":1,"cues":[{"id":"1","startMs":0,"endMs":2000,"text":"Hello."}]}`,
		"d/broken.vtt":    "WEBVTT\n\nnothing here\n",
		"empty/notes.txt": "no captions in this folder",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("table", func(t *testing.T) {
		t.Parallel()
		code, out, _ := run(t, "", "process", dir, "--preset", "generic")
		if code != 1 {
			t.Errorf("exit = %d; want 1 (a file failed)", code)
		}
		for _, want := range []string{"a/clean.srt", "b/fast.srt", "c/ir.json", "d/broken.vtt", "needs_attention", "failed", "4 files: 1 ready, 1 will adapt, 1 need attention, 1 failed"} {
			if !strings.Contains(out, want) {
				t.Errorf("table lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "notes.txt") || strings.Contains(out, "data.json") {
			t.Errorf("non-caption files were processed:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		t.Parallel()
		_, out, _ := run(t, "", "process", dir, "--format", "json")
		var res struct { // the members read of writeJSONResults's anonymous struct
			Totals totals       `json:"totals"`
			Files  []fileResult `json:"files"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if res.Totals.Files != 4 || res.Totals.Failed != 1 || len(res.Files) != 4 || res.Files[3].Error != "processing_failed" {
			t.Errorf("json = %+v", res)
		}
	})
	t.Run("junit", func(t *testing.T) {
		t.Parallel()
		_, out, _ := run(t, "", "process", dir, "--format", "junit", "--preset", "generic")
		var r junitReport
		if err := xml.Unmarshal([]byte(out), &r); err != nil || len(r.Suites) != 1 {
			t.Fatalf("%v\n%s", err, out)
		}
		s := r.Suites[0]
		if *s.Tests != 4 || *s.Failures != 1 || *s.Errors != 1 || len(s.Cases) != 4 || s.Cases[1].Failure == nil || s.Cases[3].Error == nil {
			t.Errorf("junit:\n%s", out)
		}
	})
	t.Run("only caption folders pass the gate", func(t *testing.T) {
		t.Parallel()
		if code, out, _ := run(t, "", "process", filepath.Join(dir, "a")); code != 0 {
			t.Errorf("exit = %d; want 0\n%s", code, out)
		}
	})
	// Usage errors are refused once, before any file is read, naming what
	// is wrong.
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"bad format", []string{"process", dir, "--format", "xml"}, "--format"},
		{"unknown preset", []string{"process", dir, "--preset", "bogus"}, "preset"},
		{"unknown fix profile", []string{"process", dir, "--fix-profile", "bogus"}, "fixProfile"},
		{"unknown standard", []string{"process", dir, "--standard", "bogus"}, "standard"},
		{"folder without captions", []string{"process", filepath.Join(dir, "empty")}, "no caption files"},
		{"junit for one file", []string{"process", filepath.Join(dir, "a", "clean.srt"), "--format", "junit"}, "applies to a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(t, "", tc.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and a message naming %q", code, out, errOut, tc.wantErr)
			}
		})
	}
}
