package httpapi_test

import (
	"bytes"
	"mime/multipart"
	"testing"
)

// fileForm builds a multipart body with a caption file and text fields.
func fileForm(t testing.TB, filename, file string, fields map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if filename != "" {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(file)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

// TestProjectDiffAndPutFromFile: an editor drops a caption file as it is,
// in any format, to diff against the project or to store as its next
// revision; nothing else (no temporary project) is created on the way.
func TestProjectDiffAndPutFromFile(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("files@example.com")
	id := ts.mustProject(owner, `{"name":"ep1","ir":`+jsonString(validIR)+`}`)
	vtt := "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n\n00:00:03.000 --> 00:00:04.000\nGoodbye.\n\n00:00:05.000 --> 00:00:06.000\nNew.\n"

	tests := []struct {
		name, method, path, filename, file string
		fields                             map[string]string
		status                             int
		code, field                        string
	}{
		{"diff a WebVTT file", "POST", "/diff", "cand.vtt", vtt, nil, 200, "", ""},
		{"diff with base", "POST", "/diff", "cand.vtt", vtt, map[string]string{"baseIrRevision": "1"}, 200, "", ""},
		{"diff stale base", "POST", "/diff", "cand.vtt", vtt, map[string]string{"baseIrRevision": "7"}, 409, "conflict", ""},
		{"diff no file", "POST", "/diff", "", "", map[string]string{"baseIrRevision": "1"}, 400, "bad_request", "file"},
		{"diff bad base", "POST", "/diff", "cand.vtt", vtt, map[string]string{"baseIrRevision": "one"}, 400, "bad_request", "baseIrRevision"},
		{"diff file without cues", "POST", "/diff", "x.vtt", "WEBVTT\n\nnothing\n", nil, 422, "processing_failed", ""},
		{"put without base", "PUT", "/ir", "cand.vtt", vtt, nil, 400, "bad_request", "baseRevision"},
		{"put stale base", "PUT", "/ir", "cand.vtt", vtt, map[string]string{"baseRevision": "0"}, 409, "conflict", ""},
		{"put a WebVTT file", "PUT", "/ir", "cand.vtt", vtt, map[string]string{"baseRevision": "1"}, 200, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, ctype := fileForm(t, tc.filename, tc.file, tc.fields)
			r := ts.do(request{method: tc.method, path: projectsPath + "/" + id + tc.path, secret: owner, body: body, contentType: ctype})
			if tc.status != 200 {
				e := wantError(t, r, tc.status, tc.code)
				if tc.field != "" && e.Details["field"] != tc.field {
					t.Errorf("details %v; want field %s", e.Details, tc.field)
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			m := r.json(t)
			if tc.path == "/diff" {
				s := m["summary"].(map[string]any)
				if s["added"] != float64(1) || s["changed"] != float64(1) || s["removed"] != float64(0) {
					t.Errorf("summary %v; want 1 added, 1 changed", s)
				}
				return
			}
			if m["irRevision"] != float64(2) || m["cueCount"] != float64(3) {
				t.Errorf("after put: %v", m)
			}
		})
	}
	// One project, as created: no temporary ones.
	if ps := ts.get(projectsPath, owner).json(t)["projects"].([]any); len(ps) != 1 {
		t.Errorf("%d projects; want 1", len(ps))
	}
}
