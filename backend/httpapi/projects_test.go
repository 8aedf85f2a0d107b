package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/project"
)

const (
	projectsPath = "/api/v1/projects"
	validIR      = `{"version":1,"cues":[{"id":"1","startMs":1000,"endMs":2000,"text":"Hi."},{"id":"2","startMs":3000,"endMs":4000,"text":"Bye."}]}`
	unknownID    = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
)

// projectForm builds the multipart body of POST /api/v1/projects; a nil
// file leaves the part out.
func projectForm(t testing.TB, name string, filename string, file []byte) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("name", name); err != nil {
		t.Fatal(err)
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(file); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

func (ts *testServer) postJSON(method, path, secret, body string) response {
	ts.t.Helper()
	return ts.do(request{method: method, path: path, secret: secret, body: strings.NewReader(body), contentType: "application/json"})
}

// mustProject creates a project from JSON and returns its id.
func (ts *testServer) mustProject(secret, body string) string {
	ts.t.Helper()
	r := ts.postJSON("POST", projectsPath, secret, body)
	if r.status != 201 {
		ts.t.Fatalf("create project %s: %d %s", body, r.status, r.body)
	}
	return r.json(ts.t)["id"].(string)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestProjectCreate(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("projects@example.com")
	multi := func(name, filename string, file []byte) response {
		body, ct := projectForm(t, name, filename, file)
		return ts.do(request{method: "POST", path: projectsPath, secret: owner, body: body, contentType: ct})
	}
	tests := []struct {
		name                 string
		send                 func() response
		status               int
		code                 string
		wantStatus           string
		wantRevision, wantCs float64
	}{
		{"srt file", func() response { return multi("Episode 1", "ep1.srt", []byte(readySRT)) }, 201, "", "ready", 1, 2},
		{"vtt file without a name hint", func() response {
			return multi("vtt", "", []byte("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n"))
		}, 201, "", "ready", 1, 1},
		{"form without a file", func() response { return multi("empty form", "", nil) }, 201, "", "empty", 0, 0},
		{"ir json", func() response {
			return ts.postJSON("POST", projectsPath, owner, `{"name":"From IR","ir":`+jsonString(validIR)+`}`)
		}, 201, "", "ready", 1, 2},
		{"name only", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":"  Empty  "}`) }, 201, "", "empty", 0, 0},
		{"file without cues", func() response { return multi("bad", "x.vtt", []byte(noCuesVTT)) }, 422, "processing_failed", "", 0, 0},
		{"empty file", func() response { return multi("bad", "x.srt", []byte{}) }, 422, "processing_failed", "", 0, 0},
		{"ir without cues", func() response {
			return ts.postJSON("POST", projectsPath, owner, `{"name":"x","ir":"{\"version\":1,\"cues\":[]}"}`)
		}, 422, "processing_failed", "", 0, 0},
		{"ir not json", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":"x","ir":"1\n00:00"}`) }, 422, "processing_failed", "", 0, 0},
		{"ir with a broken cue", func() response {
			return ts.postJSON("POST", projectsPath, owner, `{"name":"x","ir":`+jsonString(`{"version":1,"cues":[{"id":"1","startMs":5,"endMs":1,"text":"x"},{"id":"2","startMs":1,"endMs":2,"text":"y"}]}`)+`}`)
		}, 422, "processing_failed", "", 0, 0},
		{"no name", func() response { return ts.postJSON("POST", projectsPath, owner, `{"ir":`+jsonString(validIR)+`}`) }, 400, "bad_request", "", 0, 0},
		{"name with a control character", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":"a\u001b[2Jb"}`) }, 400, "bad_request", "", 0, 0},
		{"name with a bidi override in a form", func() response { return multi("key\u202etxt.exe", "", nil) }, 400, "bad_request", "", 0, 0},
		{"name too long", func() response {
			return ts.postJSON("POST", projectsPath, owner, `{"name":"`+strings.Repeat("n", 101)+`"}`)
		}, 400, "bad_request", "", 0, 0},
		{"invalid json", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":`) }, 400, "bad_request", "", 0, 0},
		{"wrong type name", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":5}`) }, 400, "bad_request", "", 0, 0},
		{"ir as an object", func() response { return ts.postJSON("POST", projectsPath, owner, `{"name":"x","ir":`+validIR+`}`) }, 400, "bad_request", "", 0, 0},
		{"plain text body", func() response {
			return ts.do(request{method: "POST", path: projectsPath, secret: owner, body: strings.NewReader("name=x"), contentType: "text/plain"})
		}, 400, "bad_request", "", 0, 0},
		{"oversize declared json", func() response {
			return ts.do(request{method: "POST", path: projectsPath, secret: owner, body: strings.NewReader(`{"name":"x","ir":"` + strings.Repeat("a", 9_000_000) + `"}`), contentType: "application/json"})
		}, 400, "payload_too_large", "", 0, 0},
		{"oversize ir text", func() response {
			return ts.postJSON("POST", projectsPath, owner, `{"name":"x","ir":"`+strings.Repeat("a", project.MaxIRBytes+1)+`"}`)
		}, 400, "payload_too_large", "", 0, 0},
		{"oversize form", func() response { return multi("big", "big.srt", bytes.Repeat([]byte("a"), 4_500_000)) }, 400, "payload_too_large", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.send()
			if tt.code != "" {
				e := wantError(t, r, tt.status, tt.code)
				if tt.code == "processing_failed" {
					if _, ok := e.Details["diagnostics"].([]any); !ok {
						t.Errorf("details = %v; want diagnostics", e.Details)
					}
				}
				return
			}
			if r.status != tt.status {
				t.Fatalf("status %d; want %d\n%s", r.status, tt.status, r.body)
			}
			m := r.json(t)
			wantFields(t, m, map[string]any{"status": tt.wantStatus, "irRevision": tt.wantRevision, "cueCount": tt.wantCs,
				"createdAt": "2026-03-10T12:00:00Z", "updatedAt": "2026-03-10T12:00:00Z"})
			if tt.name == "name only" && m["name"] != "Empty" {
				t.Errorf("name = %v; want it trimmed", m["name"])
			}
		})
	}
}

func TestProjectReadAndList(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("lister@example.com")
	other := ts.pro("other@example.com")
	var ids []string
	for i := range 5 {
		ids = append(ids, ts.mustProject(owner, fmt.Sprintf(`{"name":"p%d"}`, i)))
		ts.clock.Advance(time.Second)
	}
	ready := ts.mustProject(owner, `{"name":"ready","ir":`+jsonString(validIR)+`}`)
	ts.mustProject(other, `{"name":"not yours"}`)

	// Pages of 2, newest first, until nextCursor is null.
	var names []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("the listing does not end")
		}
		path := projectsPath + "?limit=2"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		r := ts.get(path, owner)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		m := r.json(t)
		for _, p := range m["projects"].([]any) {
			names = append(names, p.(map[string]any)["name"].(string))
		}
		next, _ := m["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if got := strings.Join(names, ","); got != "ready,p4,p3,p2,p1,p0" {
		t.Errorf("listing = %s", got)
	}
	if got := len(ts.get(projectsPath, owner).json(t)["projects"].([]any)); got != 6 {
		t.Errorf("default page holds %d", got)
	}
	for _, q := range []string{"?limit=0x", "?limit=101", "?limit=-1", "?cursor=bm90LWEtY3Vyc29y", "?cursor=%25%25"} {
		wantError(t, ts.get(projectsPath+q, owner), 400, "bad_request")
	}

	// Get: the IR as an object; null while empty.
	r := ts.get(projectsPath+"/"+ready, owner)
	if r.status != 200 {
		t.Fatalf("get: %d %s", r.status, r.body)
	}
	m := r.json(t)
	ir, _ := m["ir"].(map[string]any)
	if cues, _ := ir["cues"].([]any); len(cues) != 2 || m["status"] != "ready" {
		t.Errorf("get ready = %s", r.body)
	}
	if m := ts.get(projectsPath+"/"+ids[0], owner).json(t); m["ir"] != nil || m["status"] != "empty" {
		t.Errorf("get empty = %v", m)
	}
	revs := ts.get(projectsPath+"/"+ready+"/revisions", owner).json(t)
	if list, _ := revs["revisions"].([]any); len(list) != 1 || revs["currentIrRevision"] != 1.0 {
		t.Errorf("revisions = %v", revs)
	}

	// Another account's project, an unknown one and a bad id.
	for _, path := range []string{"", "/revisions"} {
		wantError(t, ts.get(projectsPath+"/"+ready+path, other), 404, "not_found")
		wantError(t, ts.get(projectsPath+"/"+unknownID+path, owner), 404, "not_found")
		wantError(t, ts.get(projectsPath+"/not-a-uuid"+path, owner), 400, "bad_request")
	}
	wantError(t, ts.do(request{method: "DELETE", path: projectsPath + "/" + ready, secret: other}), 404, "not_found")
	wantError(t, ts.postJSON("PUT", projectsPath+"/"+ready+"/ir", other, `{"ir":`+jsonString(validIR)+`,"baseRevision":1}`), 404, "not_found")

	// A key without exports:read cannot list.
	a, _ := ts.account("narrow@example.com", account.TierPro, nil)
	_, narrow := ts.mustKey(a.ID, account.NewKey{Name: "w", Scopes: []string{account.ScopeExportsWrite}})
	wantError(t, ts.get(projectsPath, narrow), 403, "forbidden")
}

func TestProjectRevisionsAndDelete(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("revisions@example.com")
	id := ts.mustProject(owner, `{"name":"timeline"}`)
	irPath := projectsPath + "/" + id + "/ir"
	put := func(base int, cues int) response {
		var parts []string
		for i := range cues {
			parts = append(parts, fmt.Sprintf(`{"id":"%d","startMs":%d,"endMs":%d,"text":"c%d"}`, i+1, i*1000, i*1000+500, i))
		}
		ir := `{"version":1,"cues":[` + strings.Join(parts, ",") + `]}`
		return ts.postJSON("PUT", irPath, owner, `{"ir":`+jsonString(ir)+`,"baseRevision":`+strconv.Itoa(base)+`}`)
	}

	// An empty project takes revision 1 on base 0.
	ts.clock.Advance(time.Minute)
	r := put(0, 3)
	if r.status != 200 {
		t.Fatalf("put: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"irRevision": 1.0, "cueCount": 3.0, "status": "ready", "updatedAt": "2026-03-10T12:01:00Z", "createdAt": "2026-03-10T12:00:00Z"})

	tests := []struct {
		name   string
		body   string
		status int
		code   string
		reason string
	}{
		{"stale base", `{"ir":` + jsonString(validIR) + `,"baseRevision":0}`, 409, "conflict", "stale_revision"},
		{"future base", `{"ir":` + jsonString(validIR) + `,"baseRevision":7}`, 409, "conflict", "stale_revision"},
		{"negative base", `{"ir":` + jsonString(validIR) + `,"baseRevision":-1}`, 400, "bad_request", ""},
		{"no base", `{"ir":` + jsonString(validIR) + `}`, 400, "bad_request", "required"},
		{"no ir", `{"baseRevision":1}`, 400, "bad_request", "required"},
		{"base as a string", `{"ir":` + jsonString(validIR) + `,"baseRevision":"1"}`, 400, "bad_request", "wrong_type"},
		{"invalid ir", `{"ir":"{}","baseRevision":1}`, 422, "processing_failed", ""},
		{"duplicate key", `{"ir":"{}","ir":"{}","baseRevision":1}`, 400, "bad_request", "duplicate_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := wantError(t, ts.postJSON("PUT", irPath, owner, tt.body), tt.status, tt.code)
			if tt.reason != "" && e.Details["reason"] != tt.reason {
				t.Errorf("details = %v; want reason %s", e.Details, tt.reason)
			}
			if tt.reason == "stale_revision" && e.Details["currentIrRevision"] != 1.0 {
				t.Errorf("details = %v; want currentIrRevision 1", e.Details)
			}
		})
	}

	// Revisions past the kept number are pruned, newest first.
	for base := 1; base < project.KeptRevisions+3; base++ {
		if r := put(base, 1+base%4); r.status != 200 {
			t.Fatalf("put on %d: %d %s", base, r.status, r.body)
		}
	}
	revs := ts.get(projectsPath+"/"+id+"/revisions", owner).json(t)
	list, _ := revs["revisions"].([]any)
	last := project.KeptRevisions + 3 - 1 + 1
	if len(list) != project.KeptRevisions || list[0].(map[string]any)["irRevision"] != float64(last) ||
		list[len(list)-1].(map[string]any)["irRevision"] != float64(last-project.KeptRevisions+1) {
		t.Errorf("%d revisions, newest %v, oldest %v", len(list), list[0], list[len(list)-1])
	}

	// Delete: 200, then 404 everywhere.
	r = ts.do(request{method: "DELETE", path: projectsPath + "/" + id, secret: owner})
	if r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"id": id, "deleted": true})
	wantError(t, ts.do(request{method: "DELETE", path: projectsPath + "/" + id, secret: owner}), 404, "not_found")
	wantError(t, ts.get(projectsPath+"/"+id, owner), 404, "not_found")
	wantError(t, ts.do(request{method: "DELETE", path: projectsPath + "/nope", secret: owner}), 400, "bad_request")
}

// TestProjectFormRefusals: multipart bodies are refused in the envelope.
func TestProjectFormRefusals(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("forms@example.com")
	twice := func() (io.Reader, string) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("name", "a")
		_ = w.WriteField("name", "b")
		_ = w.Close()
		return &buf, w.FormDataContentType()
	}
	body, ct := twice()
	e := wantError(t, ts.do(request{method: "POST", path: projectsPath, secret: owner, body: body, contentType: ct}), 400, "bad_request")
	if e.Details["field"] != "name" {
		t.Errorf("details = %v", e.Details)
	}
	// A truncated form.
	wantError(t, ts.do(request{method: "POST", path: projectsPath, secret: owner,
		body: strings.NewReader("--xx\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nabc"), contentType: "multipart/form-data; boundary=xx"}), 400, "bad_request")
}

func TestProjectDiff(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("drift@example.com")
	other := ts.pro("drift-other@example.com")
	ready := ts.mustProject(owner, `{"name":"ready","ir":`+jsonString(validIR)+`}`)
	empty := ts.mustProject(owner, `{"name":"empty"}`)
	diffPath := func(id string) string { return projectsPath + "/" + id + "/diff" }
	// The candidate rewords cue 2 and adds a third cue.
	candidate := `{"version":1,"cues":[{"id":"1","startMs":1000,"endMs":2000,"text":"Hi."},{"id":"2","startMs":3000,"endMs":4000,"text":"Goodbye."},{"id":"3","startMs":5000,"endMs":6000,"text":"New."}]}`
	shifted := `{"version":1,"cues":[{"id":"1","startMs":3000,"endMs":4000,"text":"Hi."},{"id":"2","startMs":5000,"endMs":6000,"text":"Bye."}]}`

	tests := []struct {
		name    string
		id      string
		secret  string
		body    string
		status  int
		code    string
		reason  string
		summary string // added/removed/changed
		offset  float64
	}{
		{"ir", ready, owner, `{"ir":` + jsonString(candidate) + `}`, 200, "", "", "1/0/1", 0},
		{"afterIr alias", ready, owner, `{"afterIr":` + jsonString(candidate) + `}`, 200, "", "", "1/0/1", 0},
		{"both equal", ready, owner, `{"ir":` + jsonString(candidate) + `,"afterIr":` + jsonString(candidate) + `,"baseIrRevision":1}`, 200, "", "", "1/0/1", 0},
		{"identical", ready, owner, `{"ir":` + jsonString(validIR) + `}`, 200, "", "", "0/0/0", 0},
		{"shifted +2 s", ready, owner, `{"ir":` + jsonString(shifted) + `}`, 200, "", "", "0/0/0", 2000},
		{"both different", ready, owner, `{"ir":` + jsonString(candidate) + `,"afterIr":` + jsonString(validIR) + `}`, 409, "conflict", "ir_mismatch", "", 0},
		{"empty project", empty, owner, `{"ir":` + jsonString(candidate) + `}`, 409, "conflict", "project_empty", "", 0},
		{"stale base", ready, owner, `{"ir":` + jsonString(candidate) + `,"baseIrRevision":3}`, 409, "conflict", "stale_revision", "", 0},
		{"invalid ir", ready, owner, `{"ir":"not json"}`, 422, "processing_failed", "", "", 0},
		{"no ir", ready, owner, `{}`, 400, "bad_request", "required", "", 0},
		{"ir wrong type", ready, owner, `{"ir":5}`, 400, "bad_request", "wrong_type", "", 0},
		{"unknown project", unknownID, owner, `{"ir":` + jsonString(candidate) + `}`, 404, "not_found", "", "", 0},
		{"another account's project", ready, other, `{"ir":` + jsonString(candidate) + `}`, 404, "not_found", "", "", 0},
		{"bad uuid", "nope", owner, `{"ir":` + jsonString(candidate) + `}`, 400, "bad_request", "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.postJSON("POST", diffPath(tt.id), tt.secret, tt.body)
			if tt.code != "" {
				e := wantError(t, r, tt.status, tt.code)
				if tt.reason != "" && e.Details["reason"] != tt.reason {
					t.Errorf("details = %v; want reason %s", e.Details, tt.reason)
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("status %d\n%s", r.status, r.body)
			}
			m := r.json(t)
			s, _ := m["summary"].(map[string]any)
			if got := fmt.Sprintf("%v/%v/%v", s["added"], s["removed"], s["changed"]); got != tt.summary {
				t.Errorf("summary %s; want %s\n%s", got, tt.summary, r.body)
			}
			wantFields(t, m, map[string]any{"currentIrRevision": 1.0, "truncated": false, "offsetMs": tt.offset})
		})
	}

	// An account without the caption_drift add-on is refused.
	feats := []string{account.FeatureAPIV1}
	_, plain := ts.account("nodrift@example.com", account.TierPro, nil, feats...)
	e := wantError(t, ts.postJSON("POST", diffPath(ready), plain, `{"ir":"{}"}`), 403, "forbidden")
	if e.Details["missingFeature"] != account.FeatureCaptionDrift {
		t.Errorf("details = %v", e.Details)
	}
}
