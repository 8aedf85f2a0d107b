package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/race"

	"github.com/captionqa/captionqa/backend/server"
)

const (
	templatesPath = "/api/v1/export-templates"
	// csvTemplate writes one line per cue, with the ctx helpers.
	csvTemplate = `function exportTimeline(cues, ctx) {
  const rows = cues.map(c => [c.index + 1, ctx.srtTime(c.startMs), ctx.srtTime(c.endMs), JSON.stringify(c.text)].join(","));
  return { body: ["n,start,end,text", ...rows].join("\n") + "\n", filename: ctx.projectName + ".csv", contentType: "text/csv" };
}`
)

// TestTemplateLifecycle walks a template through the API, each answer
// checked against the contract: create (validated), list, get, update
// with the revision lock, test against a project, export with it, delete.
func TestTemplateLifecycle(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	key := ts.pro("templates@example.com")
	project := ts.mustProject(key, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)

	r := ts.postJSON("POST", templatesPath, key, `{"name":"CSV for translators","scriptSource":`+jsonString(csvTemplate)+`}`)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	created := r.json(t)
	id := created["id"].(string)
	if created["revision"] != 1.0 || created["filenamePattern"] != "{project}-{template}.txt" || created["scriptSource"] != csvTemplate {
		t.Errorf("created = %v", created)
	}
	list := ts.get(templatesPath, key).json(t)["templates"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["scriptSource"] != nil {
		t.Errorf("list = %v; want the template without its script", list)
	}
	if got := ts.get(templatesPath+"/"+id, key).json(t); got["scriptSource"] != csvTemplate {
		t.Errorf("get = %v", got)
	}

	test := ts.postJSON("POST", templatesPath+"/"+id+"/test", key, `{"projectId":"`+project+`"}`)
	if test.status != 200 {
		t.Fatalf("test: %d %s", test.status, test.body)
	}
	res := test.json(t)
	out := res["test"].(map[string]any)
	want := "n,start,end,text\n1,00:00:01,000,00:00:02,000,\"Hi.\"\n2,00:00:03,000,00:00:04,000,\"Bye.\"\n"
	if out["output"] != want || out["filename"] != "Lecture.csv" || out["contentType"] != "text/csv" || res["validate"] != nil ||
		out["outputBytes"] != float64(len(want)) || res["remainingApiRunsToday"] == nil {
		t.Errorf("test = %v; want output %q", res, want)
	}

	up := ts.postJSON("PUT", templatesPath+"/"+id, key, `{"name":"CSV v2","revision":1}`)
	if up.status != 200 || up.json(t)["revision"] != 2.0 {
		t.Fatalf("update: %d %s", up.status, up.body)
	}
	e := wantError(t, ts.postJSON("PUT", templatesPath+"/"+id, key, `{"name":"CSV v3","revision":1}`), 409, "conflict")
	if e.Details["reason"] != "stale_revision" || e.Details["currentRevision"] != 2.0 {
		t.Errorf("stale update: %+v", e)
	}

	x := ts.mustExport(key, project, `{"presets":["lms"],"templateIds":["`+id+`"]}`)
	arts := x["artifacts"].([]any)
	if len(arts) != 2 {
		t.Fatalf("export artifacts = %v", arts)
	}
	tpl := arts[1].(map[string]any)
	if tpl["templateId"] != id || tpl["preset"] != "template:"+id || tpl["filename"] != "Lecture.csv" ||
		tpl["contentType"] != "text/csv" || tpl["bytes"] != float64(len(want)) || arts[0].(map[string]any)["templateId"] != nil {
		t.Errorf("template artifact = %v", tpl)
	}

	if r := ts.postJSON("DELETE", templatesPath+"/"+id, key, ``); r.status != 200 || r.json(t)["deleted"] != true {
		t.Errorf("delete: %d %s", r.status, r.body)
	}
	wantError(t, ts.get(templatesPath+"/"+id, key), 404, "not_found")
}

func TestTemplateErrors(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	key := ts.pro("template-errors@example.com")
	other := ts.pro("template-other@example.com")
	project := ts.mustProject(key, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	empty := ts.mustProject(key, `{"name":"Nothing"}`)
	saved := ts.postJSON("POST", templatesPath, key, `{"name":"ok","scriptSource":`+jsonString(csvTemplate)+`}`).json(t)["id"].(string)
	throws := `function exportTimeline(cues, ctx) {
  return cues[99].text;
}`
	tests := []struct {
		name, method, path, secret, body string
		status                           int
		code, field, reason, kind        string
		line                             float64
	}{
		{"syntax error", "POST", templatesPath, key, `{"name":"x","scriptSource":"function exportTimeline(cues, ctx) {\n  return );\n}"}`,
			400, "bad_request", "scriptSource", "syntax_error", "SyntaxError", 2},
		{"no exportTimeline", "POST", templatesPath, key, `{"name":"x","scriptSource":"function other() { return '' }"}`,
			400, "bad_request", "scriptSource", "missing_export", "", 0},
		{"bad name", "POST", templatesPath, key, `{"name":"","scriptSource":` + jsonString(csvTemplate) + `}`,
			400, "bad_request", "name", "", "", 0},
		{"bad content type", "POST", templatesPath, key, `{"name":"x","contentType":"not a type","scriptSource":` + jsonString(csvTemplate) + `}`,
			400, "bad_request", "contentType", "", "", 0},
		{"another account's", "GET", templatesPath + "/" + saved, other, ``, 404, "not_found", "", "", "", 0},
		{"not a uuid", "GET", templatesPath + "/nope", key, ``, 404, "not_found", "", "", "", 0},
		{"test without project", "POST", templatesPath + "/validate", key, `{"scriptSource":` + jsonString(csvTemplate) + `,"mode":"test"}`,
			400, "bad_request", "projectId", "required", "", 0},
		{"unknown mode", "POST", templatesPath + "/validate", key, `{"scriptSource":` + jsonString(csvTemplate) + `,"mode":"lint"}`,
			400, "bad_request", "mode", "", "", 0},
		{"unknown project", "POST", templatesPath + "/" + saved + "/test", key, `{"projectId":"` + unknownID + `"}`,
			404, "not_found", "", "", "", 0},
		{"empty project", "POST", templatesPath + "/" + saved + "/test", key, `{"projectId":"` + empty + `"}`,
			422, "processing_failed", "", "project_empty", "", 0},
		{"script throws", "POST", templatesPath + "/validate", key, `{"scriptSource":` + jsonString(throws) + `,"mode":"both","projectId":"` + project + `"}`,
			422, "processing_failed", "", "", "TypeError", 2},
		{"export unknown template", "POST", exportPath(project), key, `{"templateIds":["` + unknownID + `"]}`,
			400, "bad_request", "templateIds", "unknown_template", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r response
			if tt.method == "GET" {
				r = ts.get(tt.path, tt.secret)
			} else {
				r = ts.postJSON(tt.method, tt.path, tt.secret, tt.body)
			}
			e := wantError(t, r, tt.status, tt.code)
			if tt.field != "" && e.Details["field"] != tt.field || tt.reason != "" && e.Details["reason"] != tt.reason ||
				tt.kind != "" && e.Details["kind"] != tt.kind || tt.line != 0 && e.Details["line"] != tt.line {
				t.Errorf("error = %+v; want field %q reason %q kind %q line %v", e, tt.field, tt.reason, tt.kind, tt.line)
			}
			if tt.kind == "TypeError" && !strings.Contains(strings.Join(anyStrings(e.Details["stack"]), "\n"), "template.js:2") {
				t.Errorf("stack %v; want a frame at template.js:2", e.Details["stack"])
			}
		})
	}
}

// TestTemplatesOff: with the runtime off every template route answers
// 503, and an export naming a template too.
func TestTemplatesOff(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.TemplatesOff = true })
	key := ts.pro("templates-off@example.com")
	project := ts.mustProject(key, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	for _, r := range []response{
		ts.get(templatesPath, key),
		ts.postJSON("POST", templatesPath, key, `{"name":"x","scriptSource":"function exportTimeline(){return ''}"}`),
		ts.postJSON("POST", templatesPath+"/validate", key, `{"scriptSource":""}`),
		ts.get(templatesPath+"/"+unknownID, key),
		ts.postJSON("POST", exportPath(project), key, `{"templateIds":["`+unknownID+`"]}`),
	} {
		wantError(t, r, 503, "unavailable")
	}
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, s := range list {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}

// TestTemplateBombs: scripts that loop, recurse or allocate without end
// each stop at their limit with the kind that says why, 20 of them at
// once, while /healthz keeps answering; a client that gives up on a long
// run is no server failure.
func TestTemplateBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("every run burns its whole time limit (make test runs it)")
	}
	t.Parallel()
	// The bombs that end at the clock run on a server with a short run
	// limit; those that end at the stack or memory cap on one whose
	// clock is out of their way, so that a loaded machine, however slow,
	// cannot turn their cap into a timeout.
	bombs := []struct {
		script, kind string
		clock        bool
	}{
		{`function exportTimeline() { while (true) {} }`, "timeout", true},
		{`function exportTimeline() { const s = "x".repeat(1 << 14); for (;;) s.split("").reverse().join(""); }`, "timeout", true},
		{`function exportTimeline() { return /^(a+)+$/.test("a".repeat(40) + "b") ? "" : "" }`, "timeout", true},
		{`function exportTimeline() { const f = n => f(n + 1) + 1; return String(f(0)); }`, "stack_overflow", false},
		{`function exportTimeline() { return String(new Array(2 ** 31).fill(0).length); }`, "memory_limit", false},
	}
	runs := 20
	if race.Enabled {
		// Without the kick a loop of heavy built-ins and a backtracking
		// regex overrun their limit by minutes, and a memory bomb takes
		// seconds to fill 64 MiB: jsrun's own tests cover them. Every run
		// burns its whole time limit, so four (more than a 2-core
		// machine's engine slots: they queue too) check the concurrent
		// path here; make test runs all twenty, of every kind, without
		// the detector.
		bombs = append(bombs[:1], bombs[3])
		runs = 4
	}
	// The bombs of one account run at once here, and wait for the
	// engine's slots as long as it takes: the fair share
	// (TestTemplateFairness) would refuse all but one of them. The
	// export-operation burst limit (10 per account, which template tests
	// share) lets each account run 10 at once: three accounts a server.
	type account struct{ key, project string }
	servers := map[bool]*testServer{}
	accounts := map[bool][]account{}
	for _, clock := range []bool{true, false} {
		limit := 2 * time.Second
		if !clock {
			limit = 10 * time.Minute
		}
		ts := newTestServer(t, func(c *server.Config) {
			c.TemplateRunTimeout = limit
			c.TemplateRunsPerAccount, c.TemplateQueueWait = 10, 10*time.Minute
		})
		servers[clock] = ts
		for i := range 3 {
			key := ts.pro(fmt.Sprintf("template-bombs-%d@example.com", i))
			accounts[clock] = append(accounts[clock], account{key, ts.mustProject(key, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, runs)
	sent := map[bool]int{}
	for i := range runs {
		b := bombs[i%len(bombs)]
		ts, a := servers[b.clock], accounts[b.clock][sent[b.clock]/10]
		sent[b.clock]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := ts.postJSON("POST", templatesPath+"/validate", a.key,
				`{"scriptSource":`+jsonString(b.script)+`,"mode":"test","projectId":"`+a.project+`"}`)
			if r.status != 422 {
				errs <- fmt.Sprintf("%s: %d %s", b.kind, r.status, r.body)
				return
			}
			if e := r.apiError(t); e.Details["kind"] != b.kind {
				errs <- fmt.Sprintf("%s: kind %v (%s)", b.kind, e.Details["kind"], e.Message)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(100 * time.Millisecond):
			for _, ts := range servers {
				if r := ts.get("/healthz", ""); r.status != 200 {
					t.Errorf("/healthz during the bombs: %d", r.status)
				}
			}
		}
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}

	// A client that gives up: the run is cut, and nothing is logged as
	// an internal error.
	ts, a := servers[true], accounts[true][2]
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+templatesPath+"/validate",
		strings.NewReader(`{"scriptSource":`+jsonString(bombs[0].script)+`,"mode":"test","projectId":"`+a.project+`"}`))
	req.Header.Set("Authorization", "Bearer "+a.key)
	req.Header.Set("Content-Type", "application/json")
	if res, err := ts.raw.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("the request was answered (%d) before the client gave up", res.StatusCode)
	}
	// The handler logs the client's going once its run has been cut.
	ts.waitForLog(t, "client gone before the answer")
	if strings.Contains(ts.logs.String(), "internal error") {
		t.Errorf("a client that went away was logged as an internal error:\n%s", ts.logs.String())
	}
}

// waitForLog waits until the server's log holds text, and fails t if it
// does not within a minute.
func (ts *testServer) waitForLog(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(ts.logs.String(), text); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never held %q:\n%s", text, ts.logs.String())
		}
	}
}

// loopTemplate never returns: each run burns its whole time limit.
const loopTemplate = `function exportTimeline() { while (true) {} }`

// attempt posts body to path as secret until ctx ends; a request cut
// by ctx is a response of status 0. Safe to call from any goroutine.
func (ts *testServer) attempt(ctx context.Context, path, secret, body string) response {
	req, err := http.NewRequestWithContext(ctx, "POST", ts.URL+path, strings.NewReader(body))
	if err != nil {
		return response{}
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.client.Do(req)
	if err != nil {
		return response{}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// TestTemplateFairness: one account's endless loops, several at once,
// take one VM; its other runs are refused 429 rate_limited with
// Retry-After, and another account's test runs meanwhile
// (docs/templates.md, Fair share).
func TestTemplateFairness(t *testing.T) {
	t.Parallel()
	// The loop that gets the account's VM holds it until the test lets go.
	ts := newTestServer(t, func(c *server.Config) { c.TemplateRunTimeout = 5 * time.Minute })
	keyA, keyB := ts.pro("fair-a@example.com"), ts.pro("fair-b@example.com")
	projectA := ts.mustProject(keyA, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	projectB := ts.mustProject(keyB, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	r := ts.postJSON("POST", templatesPath, keyB, `{"name":"CSV","scriptSource":`+jsonString(csvTemplate)+`}`)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	idB := r.json(t)["id"].(string)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const loops = 5
	answers := make(chan response, loops)
	for range loops {
		go func() {
			answers <- ts.attempt(ctx, templatesPath+"/validate", keyA,
				`{"scriptSource":`+jsonString(loopTemplate)+`,"mode":"test","projectId":"`+projectA+`"}`)
		}()
	}
	// All but the loop holding the account's VM are refused, after the
	// queue wait.
	for range loops - 1 {
		a := <-answers
		wantError(t, a, 429, "rate_limited")
		if e := a.apiError(t); e.Details["limit"] != "template_runs_per_account" || e.Details["retryAfterSeconds"] == nil {
			t.Errorf("refusal details = %v; want limit template_runs_per_account and retryAfterSeconds", e.Details)
		}
		if a.header.Get("Retry-After") == "" {
			t.Error("a refused run has no Retry-After")
		}
	}
	test := ts.postJSON("POST", templatesPath+"/"+idB+"/test", keyB, `{"projectId":"`+projectB+`"}`)
	if test.status != 200 {
		t.Fatalf("another account's test while the loop runs: %d %s", test.status, test.body)
	}
	want := "n,start,end,text\n1,00:00:01,000,00:00:02,000,\"Hi.\"\n2,00:00:03,000,00:00:04,000,\"Bye.\"\n"
	if out := test.json(t)["test"].(map[string]any); out["output"] != want {
		t.Errorf("output = %q; want %q", out["output"], want)
	}

	cancel()
	if a := <-answers; a.status != 0 {
		t.Errorf("the loop holding the VM was answered %d %s; want it still running until cut", a.status, a.body)
	}
}

// BenchmarkTemplateFairness: another account's trivial template test,
// alone and while one account keeps 12 endless loops coming (each refused
// one retried at once). It reports both latencies (target: attacked
// within about 2 s; before the fair share it waited about a minute).
func BenchmarkTemplateFairness(b *testing.B) {
	ts, keyB := benchServer(b)
	keyA := ts.pro("attacker@example.com")
	projectA := ts.mustProject(keyA, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	projectB := ts.mustProject(keyB, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	r := ts.postJSON("POST", templatesPath, keyB, `{"name":"CSV","scriptSource":`+jsonString(csvTemplate)+`}`)
	if r.status != 201 {
		b.Fatalf("create: %d %s", r.status, r.body)
	}
	path := templatesPath + "/" + r.json(b)["id"].(string) + "/test"
	runB := func() time.Duration {
		ts.clock.Advance(3 * time.Second) // past the export burst limit
		start := time.Now()
		if r := ts.do(request{method: "POST", path: path, secret: keyB, body: strings.NewReader(`{"projectId":"` + projectB + `"}`),
			contentType: "application/json", raw: true}); r.status != 200 {
			b.Fatalf("test: %d %s", r.status, r.body)
		}
		return time.Since(start)
	}

	var alone, attacked time.Duration
	b.ResetTimer()
	for range b.N {
		alone += runB()
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	refused := make(chan struct{})
	var once sync.Once
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if a := ts.attempt(ctx, templatesPath+"/validate", keyA,
					`{"scriptSource":`+jsonString(loopTemplate)+`,"mode":"test","projectId":"`+projectA+`"}`); a.status == 429 {
					once.Do(func() { close(refused) })
				}
			}
		}()
	}
	<-refused // the attack holds its VM
	for range b.N {
		attacked += runB()
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	b.ReportMetric(float64(alone.Milliseconds())/float64(b.N), "alone-ms")
	b.ReportMetric(float64(attacked.Milliseconds())/float64(b.N), "attacked-ms")
}

// TestTemplateExportHoldsNoEngineSlot: an export whose template loops
// holds its account's VM, not one of the engine's slots, so another
// account's process run goes ahead on a server with a single slot.
func TestTemplateExportHoldsNoEngineSlot(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.MaxEngineRuns, c.TemplateRunTimeout = 1, 5*time.Minute })
	keyA, keyB := ts.pro("slot-a@example.com"), ts.pro("slot-b@example.com")
	projectA := ts.mustProject(keyA, `{"name":"Lecture","ir":`+jsonString(validIR)+`}`)
	r := ts.postJSON("POST", templatesPath, keyA, `{"name":"Loop","scriptSource":`+jsonString(loopTemplate)+`}`)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	loop := r.json(t)["id"].(string)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exported := make(chan response, 1)
	go func() {
		exported <- ts.attempt(ctx, exportPath(projectA), keyA, `{"presets":[],"templateIds":["`+loop+`"]}`)
	}()
	// The export's loop holds A's one VM once A's next run is refused.
	for deadline := time.Now().Add(30 * time.Second); ; {
		probe := ts.postJSON("POST", templatesPath+"/validate", keyA, `{"scriptSource":"function exportTimeline() { return \"\"; }"}`)
		if probe.status == 429 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the export's loop never held the account's VM: last probe %d %s", probe.status, probe.body)
		}
	}
	if got := ts.process("/api/v1/process", keyB, readySRT, nil); got.status != 200 {
		t.Fatalf("another account's process run beside the looping export: %d %s", got.status, got.body)
	}
	cancel()
	if a := <-exported; a.status != 0 {
		t.Errorf("the looping export was answered %d %s; want it running until cut", a.status, a.body)
	}
}
