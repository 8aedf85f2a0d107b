package httpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
)

func TestUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pro := ts.pro("pro@example.com")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/nope"},
		{"GET", "/api/v2/me"},
		{"POST", "/api/v1/nope"},     // not the UI's fallback either
		{"GET", "/api/nothing/here"}, // never the UI's fallback
		{"POST", "/nothing/here"},    // the UI answers GET and HEAD only
	} {
		r := ts.do(request{method: c.method, path: c.path, secret: pro, raw: true})
		e := wantError(t, r, 404, "not_found")
		if e.Message != "No route matches the method and path." {
			t.Errorf("%s %s: message %q", c.method, c.path, e.Message)
		}
		if r.header.Get("X-Request-Id") == "" || r.header.Get("Allow") != "" {
			t.Errorf("%s %s: X-Request-Id %q, Allow %q", c.method, c.path, r.header.Get("X-Request-Id"), r.header.Get("Allow"))
		}
	}
	// A route's path with another method: 405 with the methods it takes.
	for _, c := range []struct {
		method, path string
		allow        []string
	}{
		{"PUT", "/api/v1/me", []string{"OPTIONS", "GET"}},
		{"GET", "/api/v1/process", []string{"OPTIONS", "POST"}},
		{"PATCH", "/api/v1/api-keys", []string{"OPTIONS", "GET", "POST"}},
		{"POST", "/api/v1/jobs/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", []string{"OPTIONS", "DELETE", "GET"}},
		{"DELETE", "/healthz", []string{"OPTIONS", "GET"}},
		// A static path beside a parameter route (GET /jobs/:jobId) is
		// the static route's, with its methods, never a job named
		// "extract".
		{"GET", "/api/v1/jobs/extract", []string{"OPTIONS", "POST"}},
		{"DELETE", "/api/v1/jobs/render", []string{"OPTIONS", "POST"}},
		{"GET", "/api/v1/export-templates/validate", []string{"OPTIONS", "POST"}},
	} {
		r := ts.do(request{method: c.method, path: c.path, secret: pro, raw: true})
		e := wantError(t, r, 405, "method_not_allowed")
		var got []string
		for _, m := range e.Details["allow"].([]any) {
			got = append(got, m.(string))
		}
		header := strings.Split(r.header.Get("Allow"), ", ")
		slices.Sort(got)
		slices.Sort(header)
		want := slices.Sorted(slices.Values(c.allow))
		if !slices.Equal(got, want) || !slices.Equal(header, want) {
			t.Errorf("%s %s: details.allow %v, Allow %v; want %v", c.method, c.path, got, header, want)
		}
	}
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	h := http.Header{"X-Request-Id": {"abc-123"}}
	if got := ts.do(request{method: "GET", path: "/healthz", header: h}).header.Get("X-Request-Id"); got != "abc-123" {
		t.Errorf("kept id = %q", got)
	}
	h = http.Header{"X-Request-Id": {"bad id with spaces"}}
	if got := ts.do(request{method: "GET", path: "/healthz", header: h}).header.Get("X-Request-Id"); got == "" || strings.Contains(got, " ") {
		t.Errorf("replaced id = %q", got)
	}
	if !strings.Contains(ts.logs.String(), `"requestId":"abc-123"`) {
		t.Errorf("the log lacks the request id:\n%s", ts.logs)
	}
}

func TestHealthAndContract(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := ts.get(p, ""); r.status != 200 {
			t.Errorf("%s: %d %s", p, r.status, r.body)
		}
	}
	r := ts.get("/api/v1/openapi.json", "")
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("openapi.json: %d %s", r.status, r.header)
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || doc.OpenAPI != "3.0.3" || doc.Paths["/api/v1/process"]["post"] == nil {
		t.Errorf("openapi.json: %v, openapi %q, %d paths", err, doc.OpenAPI, len(doc.Paths))
	}
}

// TestKeyInQueryString: a key in the URL is refused and never logged,
// and neither is the Authorization header.
func TestKeyInQueryString(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, secret := ts.account("q@example.com", account.TierPro, nil)
	escaped := strings.Replace(secret, "_", "%5F", 1)
	for _, tc := range []struct{ method, path, q string }{
		{"GET", "/api/v1/me", "api_key=" + secret},
		{"GET", "/api/v1/me", "apikey=" + secret},
		{"GET", "/api/v1/me", "token=x"},
		{"GET", "/api/v1/me", "access_token=" + secret},
		{"GET", "/api/v1/me", "key=" + secret},
		{"GET", "/api/v1/me", "x=" + secret},
		{"GET", "/api/v1/me", "API_KEY=" + secret},
		{"GET", "/api/v1/me", secret},                               // the bare key
		{"GET", "/api/v1/me", "Authorization=Bearer%20" + secret},   // the header as a parameter
		{"GET", "/api/v1/me", "x=Bearer+" + secret},                 // inside a value
		{"GET", "/api/v1/me", "q=x," + secret},                      // after other text
		{"GET", "/api/v1/me", "filter=%20" + secret},                // after an escaped space
		{"GET", "/api/v1/me", "x=" + escaped},                       // its underscore escaped
		{"GET", "/api/v1/me", "x=%zz&y=" + strings.ToUpper(secret)}, // beside a pair that does not parse
		{"POST", "/api/v1/process", "key=" + secret},                // any route
		{"GET", "/healthz", secret},                                 // even one without auth
	} {
		url := tc.path + "?" + tc.q
		wantError(t, ts.do(request{method: tc.method, path: url}), 400, "bad_request")
		wantError(t, ts.do(request{method: tc.method, path: url, secret: secret}), 400, "bad_request")
	}
	// A key pasted into the path is not logged either.
	wantError(t, ts.do(request{method: "GET", path: "/api/v1/" + secret, raw: true}), 404, "not_found")
	if r := ts.get("/api/v1/me?fields=all", secret); r.status != 200 {
		t.Errorf("a harmless query: %d %s", r.status, r.body)
	}
	logs := ts.logs.String()
	if strings.Contains(logs, secret) || strings.Contains(logs, secret[17:]) || strings.Contains(logs, "Bearer") {
		t.Errorf("the log holds a secret:\n%s", logs)
	}
	if !strings.Contains(logs, `"path":"/api/v1/me"`) || !strings.Contains(logs, `"status":400`) {
		t.Errorf("the log lacks the request lines:\n%s", logs)
	}
	if strings.Contains(logs, "fields=all") {
		t.Errorf("the log holds a query string:\n%s", logs)
	}
}

func TestMeAndUsage(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, secret := ts.account("Me@Example.com", account.TierFreePlus, nil)
	me := ts.get("/api/v1/me", secret).json(t)
	wantFields(t, me, map[string]any{"userKey": a.ID, "tier": "free_plus", "email": "me@example.com"})
	if f, _ := me["features"].([]any); len(f) == 0 {
		t.Errorf("features = %v", me["features"])
	}
	if r := ts.process("/api/v1/process", secret, readySRT, nil); r.status != 200 {
		t.Fatal(r.status)
	}
	u := ts.get("/api/v1/usage", secret).json(t)
	wantFields(t, u, map[string]any{"cap": float64(10), "usedToday": float64(1), "remainingToday": float64(9), "resetsAt": "2026-03-11T00:00:00Z"})
}
