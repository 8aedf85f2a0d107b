package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestStrictJSON: every JSON route refuses what a lenient parser would
// have to guess about, naming the problem, and still ignores unknown
// members.
func TestStrictJSON(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	admin := ts.pro("strict@example.com")
	const good = `{"name":"ci","scopes":["usage:read"]}`
	tests := []struct {
		name, body, contentType string
		wantReason, wantField   string // "" reason: 201 created
		wantMember              string
		// raw: beyond the contract, which names application/json; the
		// server is lenient on it, so the request is not checked.
		raw bool
	}{
		{name: "plain", body: good, contentType: "application/json"},
		{name: "charset utf-8", body: good, contentType: "application/json; charset=utf-8"},
		{name: "media type in capitals", body: good, contentType: "Application/JSON; Charset=UTF-8"},
		{name: "structured suffix", body: good, contentType: "application/vnd.captionqa+json", raw: true},
		// A client that writes every member writes null for no expiry:
		// the default, as the contract says (nullable).
		{name: "expiresAt null", body: `{"name":"ci","scopes":["usage:read"],"expiresAt":null}`, contentType: "application/json"},
		{name: "white space around", body: " \n\t" + good + "\r\n ", contentType: "application/json"},
		{name: "unknown members ignored", body: `{"name":"ci","scopes":["usage:read"],"Unknown":{"deep":[1,{"x":null}]},"nameX":1}`, contentType: "application/json"},

		{name: "no Content-Type", body: good, wantReason: "content_type"},
		{name: "text/plain", body: good, contentType: "text/plain", wantReason: "content_type"},
		{name: "form", body: good, contentType: "application/x-www-form-urlencoded", wantReason: "content_type"},
		{name: "json in the wrong tree", body: good, contentType: "text/json", wantReason: "content_type"},
		{name: "unparsable Content-Type", body: good, contentType: "application/json; charset", wantReason: "content_type"},
		{name: "other charset", body: good, contentType: "application/json; charset=latin1", wantReason: "content_type"},

		{name: "trailing garbage", body: good + "garbage", contentType: "application/json", wantReason: "trailing_data"},
		{name: "trailing comma", body: good + ",", contentType: "application/json", wantReason: "trailing_data"},
		{name: "second object", body: good + `{"name":"other","scopes":["keys:read"]}`, contentType: "application/json", wantReason: "trailing_data"},
		{name: "second object after a newline", body: good + "\n{}", contentType: "application/json", wantReason: "trailing_data"},
		{name: "duplicate key", body: `{"name":"a","name":"b","scopes":["usage:read"]}`, contentType: "application/json", wantReason: "duplicate_key", wantField: "name"},
		{name: "duplicate unknown key", body: `{"name":"a","scopes":["usage:read"],"x":1,"x":2}`, contentType: "application/json", wantReason: "duplicate_key", wantField: "x"},
		{name: "duplicate key deep inside", body: `{"name":"a","scopes":["usage:read"],"meta":{"a":[{"b":1,"b":2}]}}`, contentType: "application/json", wantReason: "duplicate_key", wantField: "meta.a.b"},
		{name: "duplicate key spelled with an escape", body: `{"name":"a","n\u0061me":"b","scopes":["usage:read"]}`, contentType: "application/json", wantReason: "duplicate_key", wantField: "name"},
		{name: "name in capitals", body: `{"NAME":"ci","scopes":["usage:read"]}`, contentType: "application/json", wantReason: "field_case", wantField: "name", wantMember: "NAME"},
		{name: "name in mixed case", body: `{"name":"ci","Scopes":["usage:read"]}`, contentType: "application/json", wantReason: "field_case", wantField: "scopes", wantMember: "Scopes"},
		{name: "expiresAt capitalised", body: `{"name":"ci","scopes":["usage:read"],"ExpiresAt":"2026-04-01T00:00:00Z"}`, contentType: "application/json", wantReason: "field_case", wantField: "expiresAt", wantMember: "ExpiresAt"},
		{name: "empty body", body: "", contentType: "application/json", wantReason: "empty"},
		{name: "white space only", body: " \n", contentType: "application/json", wantReason: "empty"},
		{name: "not JSON", body: `{not json`, contentType: "application/json", wantReason: "syntax"},
		{name: "cut short", body: `{"name":"ci"`, contentType: "application/json", wantReason: "syntax"},
		{name: "invalid UTF-8", body: "{\"name\":\"\xff\",\"scopes\":[\"usage:read\"]}", contentType: "application/json", wantReason: "syntax"},
		{name: "byte order mark", body: "\ufeff" + good, contentType: "application/json", wantReason: "syntax"},
		{name: "array", body: `[` + good + `]`, contentType: "application/json", wantReason: "not_object"},
		{name: "null", body: `null`, contentType: "application/json", wantReason: "not_object"},
		{name: "wrong type", body: `{"name":"ci","scopes":["usage:read",7]}`, contentType: "application/json", wantReason: "wrong_type", wantField: "scopes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: admin,
				body: strings.NewReader(tt.body), contentType: tt.contentType, raw: tt.raw})
			if tt.wantReason == "" {
				if r.status != http.StatusCreated {
					t.Fatalf("status %d; want 201\n%s", r.status, r.body)
				}
				return
			}
			e := wantError(t, r, 400, "bad_request")
			if e.Details["reason"] != tt.wantReason {
				t.Fatalf("details = %v (message %q); want reason %s", e.Details, e.Message, tt.wantReason)
			}
			if got, _ := e.Details["field"].(string); got != tt.wantField {
				t.Errorf("details.field = %q; want %q", got, tt.wantField)
			}
			if got, _ := e.Details["member"].(string); got != tt.wantMember {
				t.Errorf("details.member = %q; want %q", got, tt.wantMember)
			}
			if e.Message == "" || strings.Contains(e.Message, "jsontext") || strings.Contains(e.Message, "Go ") {
				t.Errorf("message %q does not name the problem in the caller's words", e.Message)
			}
		})
	}
	// Nothing refused was stored: only the admin key and the seven accepted.
	if keys, _ := ts.get("/api/v1/api-keys", admin).json(t)["keys"].([]any); len(keys) != 8 {
		t.Errorf("%d keys stored; want 8", len(keys))
	}
}

// TestStrictJSONSession: the sign-in route binds its body the same way.
func TestStrictJSONSession(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("strict-login@example.com", "pro")
	good := `{"email":"` + a.Email + `","password":"` + password + `"}`
	tests := []struct {
		name, body, contentType, wantReason string
	}{
		{"no Content-Type", good, "", "content_type"},
		{"trailing garbage", good + "x", "application/json", "trailing_data"},
		{"two objects", good + good, "application/json", "trailing_data"},
		{"duplicate password", `{"email":"` + a.Email + `","password":"wrong","password":"` + password + `"}`, "application/json", "duplicate_key"},
		{"email in capitals", `{"EMAIL":"` + a.Email + `","password":"` + password + `"}`, "application/json", "field_case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(request{method: "POST", path: "/api/session", body: strings.NewReader(tt.body),
				contentType: tt.contentType, header: http.Header{"Origin": {ts.URL}}})
			if e := wantError(t, r, 400, "bad_request"); e.Details["reason"] != tt.wantReason {
				t.Errorf("details = %v; want reason %s", e.Details, tt.wantReason)
			}
			if sessionCookie(r.header) != nil {
				t.Errorf("a refused body signed in")
			}
		})
	}
	if r := ts.postLogin(a.Email, password, nil); r.status != 200 {
		t.Errorf("the well-formed sign-in: %d %s", r.status, r.body)
	}
}

// TestStrictJSONTooLarge: a JSON body past the limit is still
// payload_too_large, declared or streamed.
func TestStrictJSONTooLarge(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	admin := ts.pro("large@example.com")
	big := `{"name":"ci","scopes":["usage:read"],"pad":"` + strings.Repeat("x", 70<<10) + `"}`
	for name, body := range map[string]io.Reader{
		"declared": strings.NewReader(big),
		"chunked":  io.MultiReader(strings.NewReader(big)), // no length known: sent chunked
	} {
		t.Run(name, func(t *testing.T) {
			r := ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: admin, body: body, contentType: "application/json"})
			wantError(t, r, 400, "payload_too_large")
		})
	}
}
