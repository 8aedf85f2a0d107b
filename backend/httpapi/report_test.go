package httpapi_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// TestProjectReport: GET /projects/{id}/report answers the QC report of
// the newest revision or of revision=N, as HTML, PDF or CSV attachments
// named for the project and the revision, counts no run, and refuses a
// bad format, an unknown revision and another account's project in the
// envelope.
func TestProjectReport(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("report@example.com")
	other := ts.pro("other-report@example.com")
	id := ts.mustProject(owner, `{"name":"Evening News","ir":`+jsonString(validIR)+`}`)
	long := `{"version":1,"cues":[{"id":"1","startMs":1000,"endMs":4000,"text":"` + strings.Repeat("a very long caption line ", 6) + `"}]}`
	if r := ts.postJSON("PUT", projectsPath+"/"+id+"/ir", owner, `{"ir":`+jsonString(long)+`,"baseRevision":1}`); r.status != 200 {
		t.Fatalf("put revision 2: %d %s", r.status, r.body)
	}
	// A preset of the account's own reports as a built-in does.
	if r := ts.postJSON("PUT", presetsPath+"/studio-a", owner, strictPreset); r.status != 201 {
		t.Fatalf("put preset: %d %s", r.status, r.body)
	}
	before := ts.get("/api/v1/usage", owner).json(t)["usedToday"]
	path := projectsPath + "/" + id + "/report"

	for _, tt := range []struct {
		query, contentType, filename string
		check                        func(t *testing.T, body []byte)
	}{
		{"", "text/html; charset=utf-8", "Evening-News-qc-report-r2.html", func(t *testing.T, b []byte) {
			for _, want := range []string{"<!DOCTYPE html>", "Evening News", "line_too_long", "Revision</dt><dd>2 of 2"} {
				if !bytes.Contains(b, []byte(want)) {
					t.Errorf("the page lacks %q", want)
				}
			}
		}},
		{"?format=csv&revision=1", "text/csv; charset=utf-8", "Evening-News-qc-report-r1.csv", func(t *testing.T, b []byte) {
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil || len(rows) == 0 || rows[0][0] != "section" {
				t.Fatalf("csv %v: %q", err, b)
			}
			if bytes.Contains(b, []byte("line_too_long")) {
				t.Errorf("revision 1 has no long line, yet its report lists one:\n%s", b)
			}
		}},
		{"?format=csv&revision=2&preset=generic", "text/csv; charset=utf-8", "Evening-News-qc-report-r2.csv", func(t *testing.T, b []byte) {
			if !bytes.Contains(b, []byte("line_too_long")) {
				t.Errorf("revision 2's long line is not listed:\n%s", b)
			}
		}},
		{"?format=csv&revision=2&preset=studio-a", "text/csv; charset=utf-8", "Evening-News-qc-report-r2.csv", func(t *testing.T, b []byte) {
			if !bytes.Contains(b, []byte("line_too_long")) {
				t.Errorf("the own preset's report does not list revision 2's long line:\n%s", b)
			}
		}},
		{"?format=pdf&standard=fcc-79.1", "application/pdf", "Evening-News-qc-report-r2.pdf", func(t *testing.T, b []byte) {
			if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("%%EOF")) {
				t.Errorf("not a PDF: %q", b[:min(len(b), 16)])
			}
		}},
	} {
		r := ts.get(path+tt.query, owner)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", tt.query, r.status, r.body)
		}
		if ct := r.header.Get("Content-Type"); ct != tt.contentType {
			t.Errorf("%s: Content-Type %q, want %q", tt.query, ct, tt.contentType)
		}
		if cd := r.header.Get("Content-Disposition"); cd != "attachment; filename="+tt.filename {
			t.Errorf("%s: Content-Disposition %q, want attachment; filename=%s", tt.query, cd, tt.filename)
		}
		tt.check(t, r.body)
	}
	if after := ts.get("/api/v1/usage", owner).json(t)["usedToday"]; after != before {
		t.Errorf("usedToday %v -> %v; a report counts no run", before, after)
	}

	for _, tt := range []struct {
		name, secret, query string
		status              int
		code, field         string
	}{
		{"bad format", owner, "?format=docx", 400, "bad_request", "format"},
		{"revision not a number", owner, "?revision=two", 400, "bad_request", "revision"},
		{"revision 0", owner, "?revision=0", 400, "bad_request", "revision"},
		{"unknown revision", owner, "?revision=9", 404, "not_found", "revision"},
		{"unknown preset", owner, "?preset=nope", 400, "bad_request", "preset"},
		{"another account's project", other, "", 404, "not_found", ""},
	} {
		e := wantError(t, ts.get(path+tt.query, tt.secret), tt.status, tt.code)
		if e.Details["field"] != nil && tt.field == "" || tt.field != "" && e.Details["field"] != tt.field {
			t.Errorf("%s: details %v; want field %q", tt.name, e.Details, tt.field)
		}
	}
	empty := ts.mustProject(owner, `{"name":"Empty"}`)
	e := wantError(t, ts.get(projectsPath+"/"+empty+"/report", owner), 409, "conflict")
	if e.Details["reason"] != "project_empty" {
		t.Errorf("empty project: details %v; want reason project_empty", e.Details)
	}
}
