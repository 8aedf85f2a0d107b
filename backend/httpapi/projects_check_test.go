package httpapi_test

import (
	"strings"
	"testing"
)

// TestProjectDraftCheck: POST /projects/{id}/check answers the process
// result of a draft without counting a run or storing anything; it
// refuses a missing draft, an unknown preset and another account's
// project.
func TestProjectDraftCheck(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("checker@example.com")
	other := ts.pro("other-checker@example.com")
	id := ts.mustProject(owner, `{"name":"Draft","ir":`+jsonString(validIR)+`}`)
	draft := `{"version":1,"cues":[{"id":"1","startMs":1000,"endMs":4000,"text":"` + strings.Repeat("a very long caption line ", 6) + `"}]}`
	before := ts.get("/api/v1/usage", owner).json(t)["usedToday"]

	r := ts.postJSON("POST", projectsPath+"/"+id+"/check", owner, `{"ir":`+jsonString(draft)+`,"preset":"youtube"}`)
	if r.status != 200 {
		t.Fatalf("check: %d %s", r.status, r.body)
	}
	if !strings.Contains(string(r.body), `"line_too_long"`) {
		t.Errorf("the draft's long line is not reported: %s", r.body)
	}
	if after := ts.get("/api/v1/usage", owner).json(t)["usedToday"]; after != before {
		t.Errorf("usedToday %v -> %v; a check counts no run", before, after)
	}
	if got := ts.get(projectsPath+"/"+id, owner).json(t)["irRevision"]; got != float64(1) {
		t.Errorf("irRevision after a check = %v; want 1 (nothing stored)", got)
	}
	for _, tt := range []struct {
		name, secret, body string
		status             int
		code, field        string
	}{
		{"no draft", owner, `{"preset":"youtube"}`, 400, "bad_request", "ir"},
		{"unknown preset", owner, `{"ir":` + jsonString(draft) + `,"preset":"nope"}`, 400, "bad_request", "preset"},
		{"another account's project", other, `{"ir":` + jsonString(draft) + `}`, 404, "not_found", ""},
	} {
		e := wantError(t, ts.postJSON("POST", projectsPath+"/"+id+"/check", tt.secret, tt.body), tt.status, tt.code)
		if tt.field != "" && e.Details["field"] != tt.field {
			t.Errorf("%s: details %v; want field %s", tt.name, e.Details, tt.field)
		}
	}
}
