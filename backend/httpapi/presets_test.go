package httpapi_test

import (
	"encoding/json"
	"testing"
)

const presetsPath = "/api/v1/presets"

// strictPreset enforces a line length no cue of readySRT or validIR
// meets, so a run with it is not ready where youtube's is.
const strictPreset = `{"base":"youtube","title":"Studio A","rules":{"line_too_long":{"level":"enforced","limit":3},"empty_cue":"off"}}`

// TestUserPresets: an account saves its own preset, sees it listed with
// its resolved rules, and uses it by name in process, exports and draft
// checks; a bad file is refused with its field; another account can
// neither see nor use it.
func TestUserPresets(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("studio@example.com")
	other := ts.pro("rival@example.com")

	r := ts.postJSON("PUT", presetsPath+"/studio-a", owner, strictPreset)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	m := r.json(t)
	rules := m["resolved"].(map[string]any)["rules"].(map[string]any)
	if m["name"] != "studio-a" || m["builtin"] != false || rules["empty_cue"] != nil ||
		rules["line_too_long"].(map[string]any)["limit"] != 3.0 || m["resolved"].(map[string]any)["output"] != "srt" {
		t.Errorf("created preset = %v", m)
	}
	if r := ts.postJSON("PUT", presetsPath+"/studio-a", owner, strictPreset); r.status != 200 {
		t.Errorf("replace: %d %s; want 200", r.status, r.body)
	}

	refusals := []struct {
		name, path, body string
		status           int
		code, field      string
	}{
		{"zero limit", "/studio-b", `{"base":"youtube","rules":{"line_too_long":{"limit":0}}}`, 400, "bad_request", "rules.line_too_long.limit"},
		{"unknown field", "/studio-b", `{"base":"youtube","colour":"red"}`, 400, "bad_request", "colour"},
		{"unknown base", "/studio-b", `{"base":"myspace"}`, 400, "bad_request", "base"},
		{"not json", "/studio-b", `{"base":`, 400, "bad_request", ""},
		{"built-in name", "/youtube", `{"base":"youtube"}`, 409, "conflict", "name"},
		{"reserved character", "/a:b", `{"base":"youtube"}`, 400, "bad_request", "name"},
	}
	for _, tc := range refusals {
		e := wantError(t, ts.postJSON("PUT", presetsPath+tc.path, owner, tc.body), tc.status, tc.code)
		if tc.field != "" && e.Details["field"] != tc.field {
			t.Errorf("%s: details.field = %v; want %s (%s)", tc.name, e.Details["field"], tc.field, e.Message)
		}
	}
	e := wantError(t, ts.postJSON("PUT", presetsPath+"/studio-b",
		owner, `{"base":"youtube","title":"","rules":{"line_too_long":{"limit":-1},"too_loud":"off"}}`), 400, "bad_request")
	if errs, _ := e.Details["errors"].([]any); len(errs) != 3 {
		t.Errorf("details.errors = %v; want one per bad field (3)", e.Details["errors"])
	}

	names := func(secret string) []string {
		r := ts.get(presetsPath, secret)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		var body struct {
			Presets []struct {
				Name    string `json:"name"`
				Builtin bool   `json:"builtin"`
			} `json:"presets"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range body.Presets {
			if !p.Builtin {
				out = append(out, p.Name)
			}
		}
		if len(body.Presets) < 11 || body.Presets[0].Name != "youtube" {
			t.Errorf("list starts %v; want the built-ins first", body.Presets[:1])
		}
		return out
	}
	if got := names(owner); len(got) != 1 || got[0] != "studio-a" {
		t.Errorf("owner's presets = %v; want [studio-a]", got)
	}
	if got := names(other); len(got) != 0 {
		t.Errorf("another account lists %v", got)
	}
	if r := ts.get(presetsPath+"/studio-a", owner); r.status != 200 || r.json(t)["file"].(map[string]any)["base"] != "youtube" {
		t.Errorf("get: %d %s", r.status, r.body)
	}
	if r := ts.get(presetsPath+"/youtube", other); r.status != 200 || r.json(t)["builtin"] != true {
		t.Errorf("get a built-in: %d %s", r.status, r.body)
	}
	wantError(t, ts.get(presetsPath+"/studio-a", other), 404, "not_found")

	// process
	r = ts.process("/api/v1/process", owner, readySRT, map[string]string{"preset": "studio-a"})
	if r.status != 200 {
		t.Fatalf("process with studio-a: %d %s", r.status, r.body)
	}
	m = r.json(t)
	if m["deliveryStatus"] == "ready" || m["report"].(map[string]any)["preset"] != "studio-a" {
		t.Errorf("process with studio-a: status %v, preset %v; want not ready, studio-a", m["deliveryStatus"], m["report"].(map[string]any)["preset"])
	}
	// ExplainAI explains a run of the account's own preset, which no
	// lookup among the built-ins finds.
	r = ts.process("/api/v1/process", owner, readySRT, map[string]string{"preset": "studio-a", "includeExplain": "true"})
	if x, _ := r.json(t)["explain"].(map[string]any); r.status != 200 || x["format"] != "svc.explain/v3" {
		t.Errorf("process with studio-a and ExplainAI: %d %s", r.status, r.body)
	}
	e = wantError(t, ts.process("/api/v1/process", other, readySRT, map[string]string{"preset": "studio-a"}), 400, "bad_request")
	if e.Details["field"] != "preset" {
		t.Errorf("another account's process: details.field = %v; want preset", e.Details["field"])
	}

	// exports and draft checks
	id := ts.mustProject(owner, `{"name":"Lecture 1","ir":`+jsonString(validIR)+`}`)
	exp := ts.mustExport(owner, id, `{"presets":["youtube","studio-a"]}`)
	files := exp["artifacts"].([]any)
	if len(files) != 2 || files[1].(map[string]any)["preset"] != "studio-a" {
		t.Errorf("export files = %v; want youtube and studio-a", files)
	}
	otherProject := ts.mustProject(other, `{"name":"Theirs","ir":`+jsonString(validIR)+`}`)
	e = wantError(t, ts.postJSON("POST", exportPath(otherProject), other, `{"presets":["studio-a"]}`), 400, "bad_request")
	if e.Details["field"] != "presets" {
		t.Errorf("another account's export: details.field = %v; want presets", e.Details["field"])
	}
	r = ts.postJSON("POST", projectsPath+"/"+id+"/check", owner, `{"ir":`+jsonString(validIR)+`,"preset":"studio-a"}`)
	if r.status != 200 || r.json(t)["report"].(map[string]any)["preset"] != "studio-a" {
		t.Errorf("draft check with studio-a: %d %s", r.status, r.body)
	}

	// delete
	wantError(t, ts.postJSON("DELETE", presetsPath+"/studio-a", other, ``), 404, "not_found")
	wantError(t, ts.postJSON("DELETE", presetsPath+"/youtube", owner, ``), 409, "conflict")
	if r := ts.postJSON("DELETE", presetsPath+"/studio-a", owner, ``); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	wantError(t, ts.process("/api/v1/process", owner, readySRT, map[string]string{"preset": "studio-a"}), 400, "bad_request")
}

// TestPresetSchemaServed: the schema is public JSON.
func TestPresetSchemaServed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	r := ts.get("/api/v1/preset-v1.schema.json", "")
	if r.status != 200 || r.json(t)["$id"] == nil {
		t.Fatalf("schema: %d %s", r.status, r.body)
	}
}
