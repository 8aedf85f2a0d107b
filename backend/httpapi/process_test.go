package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/caption/stl"
	"github.com/captionqa/captionqa/backend/server"
)

func TestProcessScenarios(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.MaxInputBytes = 4096 })
	pro := ts.pro("pro@example.com")
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	tests := []struct {
		name       string
		secret     string
		file       string
		fields     map[string]string
		wantStatus int
		wantCode   string // error code; "" for 200
		wantField  string // details.field of a 400
		check      func(t *testing.T, m map[string]any)
	}{
		{name: "a repair of the whole file has no cue", secret: pro, file: "1\n00:00:01,000 --> 00:00:02,000\nCaf\xe9 au lait.\n",
			wantStatus: 200, check: func(t *testing.T, m map[string]any) {
				fixes, _ := m["report"].(map[string]any)["fixes"].([]any)
				if len(fixes) != 1 {
					t.Fatalf("fixes = %v; want the text re-encoded", fixes)
				}
				f, _ := fixes[0].(map[string]any)
				if _, ok := f["cueIndex"]; ok || f["action"] != "reencode" {
					t.Errorf("fix = %v; want reencode without cueIndex", f)
				}
			}},
		{name: "ready", secret: pro, file: readySRT, wantStatus: 200, check: func(t *testing.T, m map[string]any) {
			wantFields(t, m, map[string]any{"deliveryStatus": "ready", "aidedStatus": "ready", "explainAvailable": true})
			if _, ok := m["explainSkippedReason"]; ok {
				t.Error("explainSkippedReason set although includeExplain was not")
			}
			if _, ok := m["explain"]; ok {
				t.Error("explain set although includeExplain was not")
			}
			if out, _ := m["output"].(string); !strings.Contains(out, "Hello there.") {
				t.Errorf("output = %q", out)
			}
		}},
		{name: "a binary delivery comes as base64", secret: pro, file: readySRT, fields: map[string]string{"preset": "ebu-stl"},
			wantStatus: 200, check: func(t *testing.T, m map[string]any) {
				wantFields(t, m, map[string]any{"outputEncoding": "base64"})
				out, _ := m["output"].(string)
				raw, err := base64.StdEncoding.DecodeString(out)
				if err != nil {
					t.Fatalf("output is not base64: %v", err)
				}
				tr, _, err := stl.Parse(bytes.NewReader(raw))
				if err != nil || len(tr.Cues) != 2 || tr.Cues[0].Text != "Hello there." {
					t.Errorf("the decoded output reads back as %+v (%v)", tr, err)
				}
			}},
		{name: "a text delivery has no outputEncoding", secret: pro, file: readySRT, wantStatus: 200, check: func(t *testing.T, m map[string]any) {
			if enc, ok := m["outputEncoding"]; ok {
				t.Errorf("outputEncoding = %v for SRT", enc)
			}
		}},
		{name: "will adapt", secret: pro, file: styledSRT, wantStatus: 200, check: func(t *testing.T, m map[string]any) {
			wantFields(t, m, map[string]any{"deliveryStatus": "will_adapt"})
		}},
		{name: "preset and standard", secret: pro, file: readySRT, fields: map[string]string{"preset": "html5", "standard": "wcag-2.1-aa", "fixProfile": "auto-split-cps"}, wantStatus: 200,
			check: func(t *testing.T, m map[string]any) {
				rep, _ := m["report"].(map[string]any)
				if rep["outputFormat"] != "vtt" || rep["standard"] == nil {
					t.Errorf("report = %v; want vtt output graded against a standard", rep)
				}
			}},
		{name: "explain on a pro account", secret: pro, file: readySRT, fields: map[string]string{"includeExplain": "true"}, wantStatus: 200,
			check: func(t *testing.T, m map[string]any) {
				wantFields(t, m, map[string]any{"explainAvailable": true})
				x, _ := m["explain"].(map[string]any)
				if x["format"] != "svc.explain/v3" || x["status"] != "clear" || x["writtenBy"] != "builtin" {
					t.Errorf("explain = %v; want a clear built-in explanation", x)
				}
				if _, ok := m["explainSkippedReason"]; ok {
					t.Error("explainSkippedReason set beside explain")
				}
			}},
		{name: "explain not entitled", secret: free, file: readySRT, fields: map[string]string{"includeExplain": "true"}, wantStatus: 200,
			check: func(t *testing.T, m map[string]any) {
				wantFields(t, m, map[string]any{"explainSkippedReason": "not_entitled"})
			}},
		{name: "no cues", secret: pro, file: noCuesVTT, wantStatus: 422, wantCode: "processing_failed"},
		{name: "unknown preset", secret: pro, file: readySRT, fields: map[string]string{"preset": "myspace"}, wantStatus: 400, wantCode: "bad_request", wantField: "preset"},
		{name: "unknown standard", secret: pro, file: readySRT, fields: map[string]string{"standard": "iso-0"}, wantStatus: 400, wantCode: "bad_request", wantField: "standard"},
		{name: "unknown fix profile", secret: pro, file: readySRT, fields: map[string]string{"fixProfile": "magic"}, wantStatus: 400, wantCode: "bad_request", wantField: "fixProfile"},
		{name: "not a language tag", secret: pro, file: readySRT, fields: map[string]string{"language": "en_GB"}, wantStatus: 400, wantCode: "bad_request", wantField: "language"},
		{name: "language given for lms", secret: pro, file: readySRT, fields: map[string]string{"preset": "lms", "language": "en-GB"}, wantStatus: 200,
			check: func(t *testing.T, m map[string]any) {
				wantFields(t, m, map[string]any{"deliveryStatus": "will_adapt"})
				if out, _ := m["output"].(string); !strings.Contains(out, `xml:lang="en-GB"`) {
					t.Errorf("output does not declare en-GB:\n%s", out)
				}
			}},
		{name: "bad includeExplain", secret: pro, file: readySRT, fields: map[string]string{"includeExplain": "maybe"}, wantStatus: 400, wantCode: "bad_request", wantField: "includeExplain"},
		{name: "engine size limit", secret: pro, file: strings.Repeat(readySRT, 100), wantStatus: 413, wantCode: "payload_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.process("/api/v1/process", tt.secret, tt.file, tt.fields)
			if tt.wantCode != "" {
				e := wantError(t, r, tt.wantStatus, tt.wantCode)
				if tt.wantField != "" && e.Details["field"] != tt.wantField {
					t.Errorf("details.field = %v; want %s", e.Details["field"], tt.wantField)
				}
				if tt.wantCode == "processing_failed" {
					if d, _ := e.Details["diagnostics"].([]any); len(d) == 0 {
						t.Errorf("422 without diagnostics: %v", e.Details)
					}
				}
				return
			}
			if r.status != tt.wantStatus {
				t.Fatalf("status = %d; want %d\n%s", r.status, tt.wantStatus, r.body)
			}
			m := r.json(t)
			if _, ok := m["remainingApiRunsToday"].(float64); !ok {
				t.Errorf("remainingApiRunsToday missing: %v", m["remainingApiRunsToday"])
			}
			if tt.check != nil {
				tt.check(t, m)
			}
		})
	}
}

func TestProcessMissingFile(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pro := ts.pro("pro@example.com")
	r := ts.do(request{method: "POST", path: "/api/v1/process", secret: pro, body: strings.NewReader(`{"file":"x"}`), contentType: "application/json"})
	e := wantError(t, r, 400, "bad_request")
	if e.Details["field"] != "file" {
		t.Errorf("details.field = %v; want file", e.Details["field"])
	}
}

// TestProcessSecondFileRefused: a form with two file parts is a bad
// request; each part would otherwise reserve room for the whole body.
func TestProcessSecondFileRefused(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pro := ts.pro("pro@example.com")
	var body strings.Builder
	for range 2 {
		body.WriteString("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.srt\"\r\n\r\n1\n00:00:01,000 --> 00:00:02,000\nHi\n\r\n")
	}
	body.WriteString("--b--\r\n")
	r := ts.do(request{method: "POST", path: "/api/v1/process", secret: pro, body: strings.NewReader(body.String()), contentType: "multipart/form-data; boundary=b"})
	e := wantError(t, r, 400, "bad_request")
	if e.Details["field"] != "file" {
		t.Errorf("details.field = %v; want file", e.Details["field"])
	}
}

func wantFields(t *testing.T, m map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v; want %v", k, m[k], v)
		}
	}
}

// TestDeclaredLengthRefusedBeforeBody declares a huge Content-Length over
// a raw connection and sends a few bytes: the answer must come at once,
// without the server waiting for the body.
func TestDeclaredLengthRefusedBeforeBody(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pro := ts.pro("pro@example.com")
	conn := ts.rawProcess(pro, "multipart/form-data; boundary=b", 4_456_449)
	fmt.Fprint(conn, "--b\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response before the body was sent: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	e := wantError(t, response{status: res.StatusCode, body: body}, 400, "payload_too_large")
	if e.Details["limitBytes"] != float64(4_456_448) {
		t.Errorf("details.limitBytes = %v", e.Details["limitBytes"])
	}

	// The same through the validating client: a request that declares
	// more than it sends.
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/process", strings.NewReader("--b\r\n"))
	req.ContentLength = 5 << 20
	req.Header.Set("Authorization", "Bearer "+pro)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	res2, err := ts.client.Do(req)
	if err == nil {
		b, _ := io.ReadAll(res2.Body)
		res2.Body.Close()
		wantError(t, response{status: res2.StatusCode, body: b}, 400, "payload_too_large")
	}
	// An error here is the client noticing the short body after the
	// server answered; the raw-connection check above is authoritative.
}

// TestChunkedBodyCutOff streams a body without a length past the limit.
func TestChunkedBodyCutOff(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.MaxRequestBytes = 64 << 10 })
	pro := ts.pro("pro@example.com")
	body, ctype := form(t, strings.Repeat(readySRT, 2000), nil)                       // ~140 KB
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/process", io.MultiReader(body)) // no length: chunked
	req.Header.Set("Authorization", "Bearer "+pro)
	req.Header.Set("Content-Type", ctype)
	if req.ContentLength != 0 {
		t.Fatalf("ContentLength = %d; want unknown", req.ContentLength)
	}
	r := ts.send(req, false)
	wantError(t, r, 400, "payload_too_large")
	// Nothing was counted.
	u := ts.get("/api/v1/usage", pro).json(t)
	if u["usedToday"] != float64(0) {
		t.Errorf("usedToday = %v; want 0", u["usedToday"])
	}
}

// TestQuotaConcurrency fires 50 runs at once at an account with 10 left:
// exactly 10 succeed.
func TestQuotaConcurrency(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	const n = 50
	var wg sync.WaitGroup
	statuses := make(chan response, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ctype := form(t, readySRT, nil)
			req, _ := http.NewRequest("POST", ts.URL+"/api/v1/process", body)
			req.Header.Set("Authorization", "Bearer "+free)
			req.Header.Set("Content-Type", ctype)
			res, err := ts.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			statuses <- response{status: res.StatusCode, header: res.Header, body: b}
		}()
	}
	wg.Wait()
	close(statuses)
	count := map[string]int{}
	for r := range statuses {
		switch r.status {
		case 200:
			count["ok"]++
		case 429:
			count[r.apiError(t).Code]++
			if r.header.Get("Retry-After") == "" {
				t.Error("quota_exceeded without Retry-After")
			}
		default:
			t.Errorf("unexpected status %d: %s", r.status, r.body)
		}
	}
	if count["ok"] != 10 || count["quota_exceeded"] != 40 {
		t.Errorf("got %v; want 10 ok and 40 quota_exceeded", count)
	}
	u := ts.get("/api/v1/usage", free).json(t)
	wantFields(t, u, map[string]any{"usedToday": float64(10), "remainingToday": float64(0), "cap": float64(10)})
}

// TestQuotaFailuresFreeAndMidnightReset: failed runs cost nothing, the
// pool is exhausted by ten successes and refills at UTC midnight.
func TestQuotaFailuresFreeAndMidnightReset(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	for range 3 {
		wantError(t, ts.process("/api/v1/process", free, noCuesVTT, nil), 422, "processing_failed")
		wantError(t, ts.process("/api/v1/process", free, readySRT, map[string]string{"preset": "nope"}), 400, "bad_request")
	}
	for i := range 10 {
		r := ts.process("/api/v1/process", free, readySRT, nil)
		if r.status != 200 {
			t.Fatalf("run %d: status %d: %s", i+1, r.status, r.body)
		}
		if got := r.json(t)["remainingApiRunsToday"]; got != float64(9-i) {
			t.Fatalf("run %d: remainingApiRunsToday = %v; want %d", i+1, got, 9-i)
		}
	}
	r := ts.process("/api/v1/process", free, readySRT, nil)
	e := wantError(t, r, 429, "quota_exceeded")
	if e.Details["resetsAt"] != "2026-03-11T00:00:00Z" || e.Details["cap"] != float64(10) {
		t.Errorf("details = %v", e.Details)
	}
	if got, want := r.header.Get("Retry-After"), fmt.Sprint(12*3600); got != want {
		t.Errorf("Retry-After = %q; want %q", got, want)
	}
	me := ts.get("/api/v1/me", free).json(t)
	if q, _ := me["quotas"].(map[string]any); q["remainingToday"] != float64(0) || q["v1DailySuccessCap"] != float64(10) {
		t.Errorf("me.quotas = %v", me["quotas"])
	}

	ts.clock.Set(time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC))
	r = ts.process("/api/v1/process", free, readySRT, nil)
	if r.status != 200 || r.json(t)["remainingApiRunsToday"] != float64(9) {
		t.Fatalf("after midnight: %d %s", r.status, r.body)
	}
}

// TestQuotaNothingHeldWhileRunning: a run under way holds no unit of the
// pool. With one run left, a slow upload is started first; a second run
// still gets the last unit, and the slow one, once its body arrives,
// finds the pool full. Had the slow one held a unit, the second would
// have been refused while the pool read 9 of 10.
func TestQuotaNothingHeldWhileRunning(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	for i := range 9 {
		if r := ts.process("/api/v1/process", free, readySRT, nil); r.status != 200 {
			t.Fatalf("run %d: status %d: %s", i+1, r.status, r.body)
		}
	}
	body, ctype := form(t, readySRT, nil)
	raw := body.Bytes()
	conn := ts.rawProcess(free, ctype, len(raw))
	half := len(raw) / 2
	if _, err := conn.Write(raw[:half]); err != nil {
		t.Fatal(err)
	}
	// Give the server time to start the slow run and wait for its body.
	time.Sleep(300 * time.Millisecond)

	r := ts.process("/api/v1/process", free, readySRT, nil)
	if r.status != 200 || r.json(t)["remainingApiRunsToday"] != float64(0) {
		t.Fatalf("run beside a slow upload: %d %s; want 200 with 0 remaining", r.status, r.body)
	}
	if _, err := conn.Write(raw[half:]); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	wantError(t, response{status: res.StatusCode, header: res.Header, body: b}, 429, "quota_exceeded")
	u := ts.get("/api/v1/usage", free).json(t)
	wantFields(t, u, map[string]any{"usedToday": float64(10), "remainingToday": float64(0)})
}

func TestRateLimited(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.BurstPerSecond, c.Burst = 0.5, 2 })
	pro := ts.pro("pro@example.com")
	for i := range 2 {
		if r := ts.get("/api/v1/me", pro); r.status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := ts.get("/api/v1/me", pro)
	e := wantError(t, r, 429, "rate_limited")
	if got := r.header.Get("Retry-After"); got != "2" || e.Details["retryAfterSeconds"] != float64(2) {
		t.Errorf("Retry-After = %q, details = %v; want 2", got, e.Details)
	}
	// Another key has its own bucket.
	if r := ts.get("/api/v1/me", ts.pro("other@example.com")); r.status != 200 {
		t.Errorf("other key: %d", r.status)
	}
	ts.clock.Advance(2 * time.Second)
	if r := ts.get("/api/v1/me", pro); r.status != 200 {
		t.Errorf("after the wait: %d %s", r.status, r.body)
	}
}

// rawProcess opens a connection of its own to the server and sends the
// head of a process request declaring length bytes of body, which the
// caller then writes (or not) as it pleases. The connection closes when
// the test ends.
func (ts *testServer) rawProcess(secret, ctype string, length int) net.Conn {
	ts.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST /api/v1/process HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: %s\r\nContent-Length: %d\r\n\r\n", secret, ctype, length)
	return conn
}
