package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
)

// exportPath is the export route of project id.
func exportPath(id string) string { return projectsPath + "/" + id + "/exports" }

// mustExport exports project id to presets and returns the 201 body.
func (ts *testServer) mustExport(secret, id, body string) map[string]any {
	ts.t.Helper()
	r := ts.postJSON("POST", exportPath(id), secret, body)
	if r.status != 201 {
		ts.t.Fatalf("export %s: %d %s", body, r.status, r.body)
	}
	return r.json(ts.t)
}

func TestExportCreate(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("exporter@example.com")
	other := ts.pro("other-exporter@example.com")
	ready := ts.mustProject(owner, `{"name":"Lecture 1","ir":`+jsonString(validIR)+`}`)
	empty := ts.mustProject(owner, `{"name":"Nothing yet"}`)
	tests := []struct {
		name, secret, id, body string
		status                 int
		code, field, reason    string
	}{
		{"unknown preset", owner, ready, `{"presets":["youtube","nope"]}`, 400, "bad_request", "presets", ""},
		{"no presets", owner, ready, `{"presets":[]}`, 400, "bad_request", "presets", ""},
		{"presets missing", owner, ready, `{}`, 400, "bad_request", "presets", ""},
		{"repeated preset", owner, ready, `{"presets":["lms","lms"]}`, 400, "bad_request", "presets", ""},
		{"unknown profile", owner, ready, `{"presets":["lms"],"fixProfile":"magic"}`, 400, "bad_request", "fixProfile", ""},
		{"unknown standard", owner, ready, `{"presets":["lms"],"standard":"iso-0"}`, 400, "bad_request", "standard", ""},
		{"wrong type", owner, ready, `{"presets":"lms"}`, 400, "bad_request", "presets", "wrong_type"},
		{"not json", owner, ready, `{"presets":`, 400, "bad_request", "", "syntax"},
		{"bad uuid", owner, "nope", `{"presets":["lms"]}`, 400, "bad_request", "id", "invalid_uuid"},
		{"unknown project", owner, unknownID, `{"presets":["lms"]}`, 404, "not_found", "", ""},
		{"another account's", other, ready, `{"presets":["lms"]}`, 404, "not_found", "", ""},
		{"empty project", owner, empty, `{"presets":["lms"]}`, 409, "conflict", "", "project_empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.postJSON("POST", exportPath(tt.id), tt.secret, tt.body)
			if r.status != tt.status {
				t.Fatalf("status = %d, want %d: %s", r.status, tt.status, r.body)
			}
			e := r.apiError(t)
			if e.Code != tt.code || (tt.field != "" && e.Details["field"] != tt.field) || (tt.reason != "" && e.Details["reason"] != tt.reason) {
				t.Errorf("error = %+v; want %s field %q reason %q", e, tt.code, tt.field, tt.reason)
			}
		})
	}

	t.Run("created", func(t *testing.T) {
		before := ts.get("/api/v1/usage", owner).json(t)["usedToday"]
		got := ts.mustExport(owner, ready, `{"presets":["youtube","lms"],"fixProfile":"auto-split-cps"}`)
		if got["irRevision"] != float64(1) || got["projectId"] != ready {
			t.Errorf("export = %v", got)
		}
		rc := got["receipt"].(map[string]any)
		if rc["version"] != float64(1) || rc["kind"] != "single_export" || rc["projectId"] != ready || rc["irRevision"] != float64(1) {
			t.Errorf("receipt = %v", rc)
		}
		arts, files := rc["artifacts"].([]any), got["artifacts"].([]any)
		if len(arts) != 2 || len(files) != 2 {
			t.Fatalf("artifacts = %v / %v", arts, files)
		}
		for i, preset := range []string{"youtube", "lms"} {
			a, f := arts[i].(map[string]any), files[i].(map[string]any)
			if a["preset"] != preset || a["exportId"] != got["exportId"] || a["filename"] != f["filename"] || f["artifactId"] == "" {
				t.Errorf("artifact %d = %v / %v", i, a, f)
			}
			if !strings.HasPrefix(f["filename"].(string), "Lecture-1-"+preset+".") {
				t.Errorf("filename = %v", f["filename"])
			}
		}
		after := ts.get("/api/v1/usage", owner).json(t)["usedToday"]
		if after.(float64)-before.(float64) != 1 {
			t.Errorf("usedToday %v -> %v; an export counts one run", before, after)
		}
	})
}

// TestExportQuota: an export counts one run once stored; a full pool is
// refused before any work, and failures cost nothing.
func TestExportQuota(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, secret := ts.account("capped-exports@example.com", account.TierPro, nil)
	two := 2
	if _, err := ts.accounts.UpdateAccount(context.Background(), a.Email, account.AccountUpdate{DailyCap: &two}); err != nil {
		t.Fatal(err)
	}
	id := ts.mustProject(secret, `{"name":"q","ir":`+jsonString(validIR)+`}`)
	empty := ts.mustProject(secret, `{"name":"e"}`)
	if r := ts.postJSON("POST", exportPath(empty), secret, `{"presets":["lms"]}`); r.status != 409 {
		t.Fatalf("empty: %d", r.status)
	}
	for want := 1; want >= 0; want-- {
		got := ts.mustExport(secret, id, `{"presets":["lms","youtube","vimeo"]}`)
		if got["remainingApiRunsToday"] != float64(want) {
			t.Errorf("remaining = %v, want %d", got["remainingApiRunsToday"], want)
		}
	}
	r := ts.postJSON("POST", exportPath(id), secret, `{"presets":["lms"]}`)
	if r.status != 429 || r.apiError(t).Code != "quota_exceeded" {
		t.Fatalf("third export: %d %s", r.status, r.body)
	}
}

// TestExportBurst: the export-operation burst limit refuses the 11th
// export of an instant with 429 rate_limited and Retry-After; time
// refills it.
func TestExportBurst(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	secret := ts.pro("bursty@example.com")
	id := ts.mustProject(secret, `{"name":"b","ir":`+jsonString(validIR)+`}`)
	for range 10 {
		ts.mustExport(secret, id, `{"presets":["lms"]}`)
	}
	r := ts.postJSON("POST", exportPath(id), secret, `{"presets":["lms"]}`)
	if r.status != 429 || r.apiError(t).Code != "rate_limited" || r.header.Get("Retry-After") == "" {
		t.Fatalf("11th export: %d %v %s", r.status, r.header, r.body)
	}
	// Other routes are not held back by it.
	if r := ts.get(projectsPath, secret); r.status != 200 {
		t.Errorf("list after the burst: %d", r.status)
	}
	ts.clock.Advance(2 * time.Second)
	ts.mustExport(secret, id, `{"presets":["lms"]}`)
}
