package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

const envelopeRef = "#/components/schemas/ErrorEnvelope"

// TestDocument checks the document's metadata and the rules every
// operation follows.
func TestDocument(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	doc := c.Doc()
	if got, want := doc.OpenAPI, "3.0.3"; got != want {
		t.Errorf("openapi = %q; want %q", got, want)
	}
	if got, want := doc.Info.Version, "1.0.0"; got != want {
		t.Errorf("info.version = %q; want %q", got, want)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "http://127.0.0.1:8787" {
		t.Errorf("servers = %v; want http://127.0.0.1:8787", doc.Servers)
	}
	if s := doc.Components.SecuritySchemes["bearerAuth"]; s == nil || s.Value.Type != "http" || s.Value.Scheme != "bearer" {
		t.Error("components.securitySchemes.bearerAuth is not an http bearer scheme")
	}
	if len(doc.Security) != 1 || doc.Security[0]["bearerAuth"] == nil {
		t.Errorf("global security = %v; want bearerAuth", doc.Security)
	}
	ids := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			if op.OperationID == "" {
				t.Errorf("%s: no operationId", name)
			} else if prev, dup := ids[op.OperationID]; dup {
				t.Errorf("%s: operationId %q already used by %s", name, op.OperationID, prev)
			}
			ids[op.OperationID] = name
			if len(op.Tags) == 0 {
				t.Errorf("%s: no tags", name)
			}
			public := op.OperationID == "getOpenAPI" || op.OperationID == "getPresetSchema"
			if public != (op.Security != nil && len(*op.Security) == 0) {
				t.Errorf("%s: only getOpenAPI and getPresetSchema are documented with security: []", name)
			}
			if !public && op.Responses.Status(401) == nil {
				t.Errorf("%s: no 401 response", name)
			}
			if op.Responses.Status(500) == nil {
				t.Errorf("%s: no 500 response", name)
			}
			notImpl := op.Extensions[contract.StatusExtension] == "not_implemented"
			if got := op.Responses.Status(501) != nil; got != notImpl {
				t.Errorf("%s: 501 documented = %v; want %v (x-captionqa-status not_implemented = %v)", name, got, notImpl, notImpl)
			}
			if !public {
				for _, code := range []int{403, 429, 503} {
					if op.Responses.Status(code) == nil {
						t.Errorf("%s: no %d response (every endpoint may return it)", name, code)
					}
				}
				if r := op.Responses.Status(429); r != nil && r.Value.Headers["Retry-After"] == nil {
					t.Errorf("%s: 429 without a Retry-After header", name)
				}
			}
			for status, ref := range op.Responses.Map() {
				if !strings.HasPrefix(status, "4") && !strings.HasPrefix(status, "5") {
					if ref.Value.Content.Get("application/json") == nil && !fileOperations[op.OperationID] {
						t.Errorf("%s %s: success response without application/json content", name, status)
					}
					continue
				}
				mt := ref.Value.Content.Get("application/json")
				if mt == nil || mt.Schema == nil || mt.Schema.Ref != envelopeRef {
					t.Errorf("%s %s: error response does not reference %s", name, status, envelopeRef)
				}
			}
		}
	}
}

// fileOperations answer a file rather than JSON on success (their
// errors are the envelope as everywhere); the table is read-only.
var fileOperations = map[string]bool{"getProjectReport": true}

// wantOperations is every v1 route (docs/api.md lists them) plus the
// contract itself.
var wantOperations = []contract.Operation{
	{Method: "GET", Path: "/api/v1/api-keys"},
	{Method: "POST", Path: "/api/v1/api-keys"},
	{Method: "DELETE", Path: "/api/v1/api-keys/{keyId}"},
	{Method: "GET", Path: "/api/v1/artifacts/{artifactId}"},
	{Method: "POST", Path: "/api/v1/explain"},
	{Method: "GET", Path: "/api/v1/export-templates"},
	{Method: "POST", Path: "/api/v1/export-templates"},
	{Method: "POST", Path: "/api/v1/export-templates/validate"},
	{Method: "DELETE", Path: "/api/v1/export-templates/{id}"},
	{Method: "GET", Path: "/api/v1/export-templates/{id}"},
	{Method: "PUT", Path: "/api/v1/export-templates/{id}"},
	{Method: "POST", Path: "/api/v1/export-templates/{id}/test"},
	{Method: "GET", Path: "/api/v1/jobs"},
	{Method: "POST", Path: "/api/v1/jobs/analyze"},
	{Method: "POST", Path: "/api/v1/jobs/extract"},
	{Method: "POST", Path: "/api/v1/jobs/render"},
	{Method: "DELETE", Path: "/api/v1/jobs/{jobId}"},
	{Method: "GET", Path: "/api/v1/jobs/{jobId}"},
	{Method: "GET", Path: "/api/v1/me"},
	{Method: "GET", Path: "/api/v1/media"},
	{Method: "POST", Path: "/api/v1/media/upload"},
	{Method: "GET", Path: "/api/v1/media/upload/{uploadId}"},
	{Method: "GET", Path: "/api/v1/media/upload/{uploadId}/analysis"},
	{Method: "POST", Path: "/api/v1/media/upload/{uploadId}/complete"},
	{Method: "GET", Path: "/api/v1/media/upload/{uploadId}/link"},
	{Method: "GET", Path: "/api/v1/openapi.json"},
	{Method: "GET", Path: "/api/v1/preset-v1.schema.json"},
	{Method: "GET", Path: "/api/v1/presets"},
	{Method: "DELETE", Path: "/api/v1/presets/{name}"},
	{Method: "GET", Path: "/api/v1/presets/{name}"},
	{Method: "PUT", Path: "/api/v1/presets/{name}"},
	{Method: "POST", Path: "/api/v1/process"},
	{Method: "GET", Path: "/api/v1/projects"},
	{Method: "POST", Path: "/api/v1/projects"},
	{Method: "DELETE", Path: "/api/v1/projects/{id}"},
	{Method: "GET", Path: "/api/v1/projects/{id}"},
	{Method: "POST", Path: "/api/v1/projects/{id}/check"},
	{Method: "POST", Path: "/api/v1/projects/{id}/diff"},
	{Method: "POST", Path: "/api/v1/projects/{id}/exports"},
	{Method: "PUT", Path: "/api/v1/projects/{id}/ir"},
	{Method: "GET", Path: "/api/v1/projects/{id}/report"},
	{Method: "GET", Path: "/api/v1/projects/{id}/revisions"},
	{Method: "GET", Path: "/api/v1/usage"},
	{Method: "GET", Path: "/api/v1/webhook"},
	{Method: "PUT", Path: "/api/v1/webhook"},
	{Method: "GET", Path: "/api/v1/webhook/deliveries"},
	{Method: "POST", Path: "/api/v1/webhook/deliveries/{deliveryId}/redeliver"},
	{Method: "POST", Path: "/api/v1/webhook/test"},
}

func TestOperations(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	if got := c.Operations(); !slices.Equal(got, wantOperations) {
		t.Errorf("Operations() =\n%v\nwant\n%v", got, wantOperations)
	}
	// Every v1 operation is served: none is a 501 stub any more.
	if got := c.NotImplemented(); len(got) != 0 {
		t.Errorf("NotImplemented() = %v; want none", got)
	}
}

func TestEchoPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/api/v1/me":                               "/api/v1/me",
		"/api/v1/api-keys/{keyId}":                 "/api/v1/api-keys/:keyId",
		"/api/v1/media/upload/{uploadId}/complete": "/api/v1/media/upload/:uploadId/complete",
	} {
		if got := contract.EchoPath(in); got != want {
			t.Errorf("EchoPath(%q) = %q; want %q", in, got, want)
		}
	}
}

// fakeTB records failures instead of failing the test that runs it.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Error(args ...any) { f.Errorf("%s", fmt.Sprint(args...)) }

// Fatalf records like Errorf and returns: the code under test returns
// after calling it.
func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...) }
func (f *fakeTB) Fatal(args ...any)                 { f.Fatalf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Fail()                             { f.Errorf("Fail") }
func (f *fakeTB) FailNow()                          { f.Fatalf("FailNow") }
func (f *fakeTB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.errors) > 0
}

func jsonHeader() http.Header {
	return http.Header{"Content-Type": []string{"application/json; charset=utf-8"}}
}

func TestValidateResponse(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	me := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
	goodMe := `{"userKey":"8d3f7a52-4b1e-4c8e-9f0a-2d6b1c3e5f71","tier":"free_plus","email":"ana@example.com",
		"features":["API_V1","API_KEYS"],"quotas":{"v1DailySuccessCap":10,"remainingToday":7}}`
	missingTier := `{"userKey":"8d3f7a52-4b1e-4c8e-9f0a-2d6b1c3e5f71","email":"ana@example.com",
		"features":["API_V1"],"quotas":{"v1DailySuccessCap":10,"remainingToday":7}}`
	envelope := func(code string) string {
		return `{"error":{"code":"` + code + `","message":"m","details":{"missingScope":"account:read"}}}`
	}
	tests := []struct {
		name     string
		req      *http.Request
		status   int
		header   http.Header
		body     string
		wantFail string // substring of the failure; "" means the exchange passes
	}{
		{name: "good me", req: me, status: 200, header: jsonHeader(), body: goodMe},
		{name: "me without tier", req: me, status: 200, header: jsonHeader(), body: missingTier, wantFail: "tier"},
		{name: "me with unknown tier", req: me, status: 200, header: jsonHeader(),
			body: strings.Replace(goodMe, "free_plus", "gold", 1), wantFail: "tier"},
		{name: "me with bad uuid", req: me, status: 200, header: jsonHeader(),
			body: strings.Replace(goodMe, "8d3f7a52-", "8d3f7a52", 1), wantFail: "uuid"},
		{name: "forbidden envelope", req: me, status: 403, header: jsonHeader(), body: envelope("forbidden")},
		{name: "unknown error code", req: me, status: 403, header: jsonHeader(), body: envelope("nope"), wantFail: "code"},
		{name: "envelope without message", req: me, status: 401, header: jsonHeader(),
			body: `{"error":{"code":"unauthorized"}}`, wantFail: "message"},
		{name: "undocumented status", req: me, status: 418, header: jsonHeader(), body: envelope("bad_request"), wantFail: "status"},
		{name: "wrong content type", req: me, status: 200, header: http.Header{"Content-Type": []string{"text/plain"}},
			body: goodMe, wantFail: "text/plain"},
		{name: "unknown route", req: httptest.NewRequest(http.MethodGet, "/api/v1/nope", nil), status: 200,
			header: jsonHeader(), body: `{}`, wantFail: "no operation"},
		{name: "revoke key", req: httptest.NewRequest(http.MethodDelete, "/api/v1/api-keys/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", nil),
			status: 200, header: jsonHeader(),
			body: `{"keyId":"0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6","revoked":true,"revokedAt":"2025-03-01T10:00:00Z"}`},
		{name: "revoke key revoked false", req: httptest.NewRequest(http.MethodDelete, "/api/v1/api-keys/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", nil),
			status: 200, header: jsonHeader(),
			body: `{"keyId":"0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6","revoked":false,"revokedAt":"2025-03-01T10:00:00Z"}`, wantFail: "revoked"},
		{name: "validate is not a template id", req: httptest.NewRequest(http.MethodPost, "/api/v1/export-templates/validate", nil),
			status: 200, header: jsonHeader(), body: `{"mode":"validate","validate":{"ok":true,"durationMs":2},"test":null,"remainingApiRunsToday":3}`},
		{name: "explain has no 501", req: httptest.NewRequest(http.MethodPost, "/api/v1/explain", nil),
			status: 501, header: jsonHeader(), body: envelope("not_implemented"), wantFail: "status"},
		{name: "me has no 501", req: me, status: 501, header: jsonHeader(), body: envelope("not_implemented"), wantFail: "status"},
		{name: "rate limited", req: me, status: 429,
			header: http.Header{"Content-Type": []string{"application/json"}, "Retry-After": []string{"3"}},
			body:   `{"error":{"code":"rate_limited","message":"slow down","details":{"retryAfterSeconds":3}}}`},
		{name: "openapi.json", req: httptest.NewRequest(http.MethodGet, "/api/v1/openapi.json", nil),
			status: 200, header: jsonHeader(), body: `{"openapi":"3.0.3"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeTB{TB: t}
			c.ValidateResponse(f, tt.req, tt.status, tt.header, []byte(tt.body))
			switch {
			case tt.wantFail == "" && f.Failed():
				t.Errorf("unexpected failure: %v", f.errors)
			case tt.wantFail != "" && !f.Failed():
				t.Errorf("passed; want a failure mentioning %q", tt.wantFail)
			case tt.wantFail != "" && !strings.Contains(strings.Join(f.errors, "\n"), tt.wantFail):
				t.Errorf("failure %v does not mention %q", f.errors, tt.wantFail)
			}
		})
	}
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	pfs, err := fs.Sub(assets.FS, "presets")
	if err != nil {
		t.Fatal(err)
	}
	presets, err := preset.Load(pfs)
	if err != nil {
		t.Fatal(err)
	}
	sfs, err := fs.Sub(assets.FS, "standards")
	if err != nil {
		t.Fatal(err)
	}
	standards, err := standard.Load(sfs)
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Options{Presets: presets, Standards: standards})
}

// TestEngineResultMatchesContract checks that what the engine returns, with
// the two account fields the API adds, is a valid process result for every
// preset and standard, and that its failures fit the error envelope.
func TestEngineResultMatchesContract(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	e := newEngine(t)
	root := filepath.Join(filepath.Dir(c.Path()), "..", "samples")
	data, err := os.ReadFile(filepath.Join(root, "interview.srt"))
	if err != nil {
		t.Fatal(err)
	}
	presets := []string{"youtube", "tiktok", "html5", "generic", "lms", "instagram-reels", "linkedin", "vimeo", "facebook", "zoom", "developer-json"}
	standards := []string{"", "wcag-2.1-aa", "en-301-549", "fcc-79.1", "dcmp"}
	req := httptest.NewRequest(http.MethodPost, "/api/v1/process", nil)
	for i, p := range presets {
		std := standards[i%len(standards)]
		res, err := e.Process(context.Background(), engine.Request{Filename: "interview.srt", Data: data, Preset: p, FixProfile: "auto-split-cps", Standard: std})
		if err != nil {
			t.Fatalf("%s/%s: %v", p, std, err)
		}
		body := processBody(t, res)
		c.ValidateResponse(t, req, 200, jsonHeader(), body)
		if p == "developer-json" {
			checkIRTrack(t, c, res.Output)
		}
	}
	_, err = e.Process(context.Background(), engine.Request{Filename: "x.srt", Data: []byte("not captions\n")})
	ae, ok := apperr.As(err)
	if !ok {
		t.Fatalf("Process(garbage) error = %v; want an *apperr.Error", err)
	}
	env, err := json.Marshal(ae.Envelope())
	if err != nil {
		t.Fatal(err)
	}
	c.ValidateResponse(t, req, 422, jsonHeader(), env)
}

func processBody(t *testing.T, res *engine.Result) []byte {
	t.Helper()
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["remainingApiRunsToday"] = 9
	m["explainAvailable"] = false
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func TestValidateRequest(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	form := func(fields map[string]string) (*http.Request, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		fw, err := w.CreateFormFile("file", "a.srt")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(fw, "1\n00:00:01,000 --> 00:00:02,000\nhi\n")
		for k, v := range fields {
			if err := w.WriteField(k, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, "/api/v1/process", nil)
		r.Header.Set("Content-Type", w.FormDataContentType())
		return r, buf.Bytes()
	}
	r, body := form(map[string]string{"preset": "vimeo", "standard": "dcmp", "includeExplain": "true"})
	if err := c.CheckRequest(r, body); err != nil {
		t.Errorf("good process request: %v", err)
	}
	// Any name may be one of the account's presets, but for the
	// characters a preset name cannot hold.
	r, body = form(map[string]string{"preset": "my/space"})
	if err := c.CheckRequest(r, body); err == nil || !strings.Contains(err.Error(), "preset") {
		t.Errorf("bad preset: err = %v; want a failure naming preset", err)
	}
	key := httptest.NewRequest(http.MethodPost, "/api/v1/api-keys", nil)
	key.Header.Set("Content-Type", "application/json")
	if err := c.CheckRequest(key, []byte(`{"name":"ci","scopes":["process:write","usage:read"]}`)); err != nil {
		t.Errorf("good key request: %v", err)
	}
	if err := c.CheckRequest(key, []byte(`{"name":"ci","scopes":["root"]}`)); err == nil {
		t.Error("unknown scope passed")
	}
	// A project's name is 1 to 100 characters after trimming, as the
	// server checks: the schema refuses an empty or all-space one too.
	proj := httptest.NewRequest(http.MethodPost, "/api/v1/projects", nil)
	proj.Header.Set("Content-Type", "application/json")
	if err := c.CheckRequest(proj, []byte(`{"name":"Pilot"}`)); err != nil {
		t.Errorf("good project request: %v", err)
	}
	for _, name := range []string{``, `   `} {
		if err := c.CheckRequest(proj, []byte(`{"name":"`+name+`"}`)); err == nil {
			t.Errorf("project name %q passed the schema; the server refuses it", name)
		}
	}
	// A saved template's test takes test or both; validate is refused
	// (it was validated when saved), and the schema says so.
	tpl := httptest.NewRequest(http.MethodPost, "/api/v1/export-templates/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6/test", nil)
	tpl.Header.Set("Content-Type", "application/json")
	for mode, ok := range map[string]bool{"test": true, "both": true, "validate": false} {
		err := c.CheckRequest(tpl, []byte(`{"projectId":"0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6","mode":"`+mode+`"}`))
		if (err == nil) != ok {
			t.Errorf("template test mode %q: err = %v; want accepted %v, as the server does", mode, err, ok)
		}
	}
	// No expiry written as null is the default expiry, as the server
	// takes it.
	if err := c.CheckRequest(key, []byte(`{"name":"ci","scopes":["usage:read"],"expiresAt":null}`)); err != nil {
		t.Errorf("expiresAt null: %v", err)
	}
	// An export's presets and standard are the server's names, each once.
	exp := httptest.NewRequest(http.MethodPost, "/api/v1/projects/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6/exports", nil)
	exp.Header.Set("Content-Type", "application/json")
	for body, ok := range map[string]bool{
		`{"presets":["youtube","lms"],"standard":"dcmp"}`: true,
		`{"presets":["youtube","studio-a"]}`:              true,
		`{"presets":["youtube","no/pe"]}`:                 false,
		`{"presets":["lms","lms"]}`:                       false,
		`{"presets":["lms"],"standard":"iso-0"}`:          false,
	} {
		if err := c.CheckRequest(exp, []byte(body)); (err == nil) != ok {
			t.Errorf("export %s: err = %v; want accepted %v, as the server does", body, err, ok)
		}
	}
	art := httptest.NewRequest(http.MethodGet, "/api/v1/artifacts/0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6?ttlSeconds=30", nil)
	if err := c.CheckRequest(art, nil); err == nil || !strings.Contains(err.Error(), "ttlSeconds") {
		t.Errorf("ttlSeconds=30: err = %v; want a failure naming ttlSeconds", err)
	}
}

// checkIRTrack checks that the developer-json output is an IRTrack as the
// contract inlines it.
func checkIRTrack(t *testing.T, c *contract.Contract, output string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(output), &v); err != nil {
		t.Fatalf("developer-json output is not JSON: %v", err)
	}
	if err := c.Doc().Components.Schemas["IRTrack"].Value.VisitJSON(v); err != nil {
		t.Errorf("developer-json output is not an IRTrack: %v", err)
	}
}

// TestJSONIsCurrent: the served JSON is the YAML's conversion; after an
// edit of the YAML, go generate ./assets writes it again.
func TestJSONIsCurrent(t *testing.T) {
	root, err := contract.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := os.ReadFile(filepath.Join(root, contract.RelPath))
	if err != nil {
		t.Fatal(err)
	}
	want, err := contract.JSON(yaml)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, contract.JSONRelPath))
	if err != nil {
		t.Fatalf("%v: run go generate ./assets", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the conversion of %s: run go generate ./assets", contract.JSONRelPath, contract.RelPath)
	}
}
