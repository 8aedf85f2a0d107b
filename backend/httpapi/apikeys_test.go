package httpapi_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
)

func TestAPIKeysLifecycle(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	admin := ts.pro("keys@example.com")
	post := func(secret, body string) response {
		return ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: secret, body: strings.NewReader(body), contentType: "application/json"})
	}

	r := post(admin, `{"name":"ci","scopes":["process:write","usage:read"],"unknown":1}`)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	created := r.json(t)
	secret, _ := created["secret"].(string)
	keyID, _ := created["keyId"].(string)
	if !regexp.MustCompile(`^cqa_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$`).MatchString(secret) || keyID == "" {
		t.Fatalf("created = %v", created)
	}
	wantFields(t, created, map[string]any{"name": "ci", "expiresAt": "2026-06-08T12:00:00Z"})

	// The new key works within its scopes.
	if r := ts.get("/api/v1/usage", secret); r.status != 200 {
		t.Errorf("usage with the new key: %d %s", r.status, r.body)
	}
	wantError(t, ts.get("/api/v1/me", secret), 403, "forbidden")

	// Listings never show a secret.
	r = ts.get("/api/v1/api-keys", admin)
	if r.status != 200 || strings.Contains(string(r.body), secret) || strings.Contains(string(r.body), secret[17:]) {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	keys, _ := r.json(t)["keys"].([]any)
	if len(keys) != 2 {
		t.Fatalf("keys = %v", keys)
	}
	newest, _ := keys[0].(map[string]any)
	wantFields(t, newest, map[string]any{"keyId": keyID, "status": "active", "prefix": secret[:10] + "…"})
	u := ts.get("/api/v1/usage", admin).json(t)
	if uk, _ := u["keys"].([]any); len(uk) != 2 || strings.Contains(string(ts.get("/api/v1/usage", admin).body), secret) {
		t.Errorf("usage keys = %v", u["keys"])
	}

	// Bad input.
	for _, body := range []string{`{"name":"","scopes":["usage:read"]}`, `{"name":"x","scopes":["root"]}`, `{"name":"x","scopes":[]}`, `{"name":"x"}`, `{not json`} {
		wantError(t, post(admin, body), 400, "bad_request")
	}
	// A value of the wrong type or a bad time names its field.
	for body, field := range map[string]string{
		`{"name":5,"scopes":["usage:read"]}`:                         "name",
		`{"name":"x","scopes":"usage:read"}`:                         "scopes",
		`{"name":"x","scopes":["usage:read"],"expiresAt":"garbage"}`: "expiresAt",
		`{"name":"x","scopes":["usage:read"],"expiresAt":12}`:        "expiresAt",
	} {
		e := wantError(t, post(admin, body), 400, "bad_request")
		if e.Details["field"] != field || strings.Contains(e.Message, "Go ") || strings.Contains(e.Message, "struct") {
			t.Errorf("%s: details %v, message %q; want field %s in the caller's words", body, e.Details, e.Message, field)
		}
	}
	// A key cannot grant what it lacks.
	a, _ := ts.account("limited@example.com", account.TierPro, nil)
	_, limited := ts.mustKey(a.ID, account.NewKey{Name: "l", Scopes: []string{account.ScopeKeysWrite}})
	e := wantError(t, post(limited, `{"name":"x","scopes":["process:write"]}`), 403, "forbidden")
	if e.Details["missingScope"] != account.ScopeProcessWrite {
		t.Errorf("details = %v", e.Details)
	}

	// Revoke: 200, idempotent, then the key is refused; 404 for unknown
	// keys and for other accounts' keys.
	del := func(secret, id string) response {
		return ts.do(request{method: "DELETE", path: "/api/v1/api-keys/" + id, secret: secret})
	}
	r = del(admin, keyID)
	if r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"keyId": keyID, "revoked": true, "revokedAt": "2026-03-10T12:00:00Z"})
	ts.clock.Advance(1e9)
	if r := del(admin, keyID); r.status != 200 || r.json(t)["revokedAt"] != "2026-03-10T12:00:00Z" {
		t.Errorf("second revoke: %d %s", r.status, r.body)
	}
	wantError(t, ts.get("/api/v1/usage", secret), 401, "api_key_revoked")
	// Usage lists the active keys only: the revoked one is gone from it.
	if uk, _ := ts.get("/api/v1/usage", admin).json(t)["keys"].([]any); len(uk) != 1 || strings.Contains(fmt.Sprint(uk), keyID) {
		t.Errorf("usage keys after the revocation = %v; want the admin key alone", uk)
	}
	wantError(t, del(admin, "7d444840-9dc0-11d1-b245-5ffdce74fad2"), 404, "not_found")
	other := ts.pro("other@example.com")
	wantError(t, del(other, keyID), 404, "not_found")
}

// TestKeyScopesTheTierCanUse: a key is refused a scope no route its
// account is entitled to needs (403, details.missingFeature and scope),
// since every call under it would fail; the scopes the tier can use are
// granted.
func TestKeyScopesTheTierCanUse(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	pro := ts.pro("pro@example.com")
	tests := []struct {
		name, secret, scope string
		wantFeature         string // "": 201
	}{
		{"free+ webhooks:write", free, account.ScopeWebhooksWrite, account.FeatureProWorkspace},
		{"free+ webhooks:read", free, account.ScopeWebhooksRead, account.FeatureProWorkspace},
		{"free+ exports:write (projects)", free, account.ScopeExportsWrite, ""},
		{"free+ process:write", free, account.ScopeProcessWrite, ""},
		{"pro webhooks:write", pro, account.ScopeWebhooksWrite, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: tt.secret, contentType: "application/json",
				body: strings.NewReader(`{"name":"k","scopes":["` + tt.scope + `"]}`)})
			if tt.wantFeature == "" {
				if r.status != 201 {
					t.Fatalf("status %d, want 201: %s", r.status, r.body)
				}
				return
			}
			e := wantError(t, r, 403, "forbidden")
			if e.Details["missingFeature"] != tt.wantFeature || e.Details["scope"] != tt.scope {
				t.Errorf("details %v; want missingFeature %s, scope %s", e.Details, tt.wantFeature, tt.scope)
			}
		})
	}
}

// TestAPIKeysPages: the listing pages newest first, keys created in the
// same second the later first, with no key repeated or skipped; a bad
// limit or cursor is 400 naming the field.
func TestAPIKeysPages(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, admin := ts.account("pages@example.com", account.TierPro, nil)
	// The clock stands still: every key is created in the same second.
	want := []string{}
	for i := range 4 {
		k, _ := ts.mustKey(a.ID, account.NewKey{Name: fmt.Sprint("k", i), Scopes: []string{account.ScopeUsageRead}})
		want = append([]string{k.ID}, want...)
	}
	first, _ := ts.get("/api/v1/api-keys?limit=5", admin).json(t)["keys"].([]any)
	if len(first) != 5 {
		t.Fatalf("limit 5: %d keys; want 5", len(first))
	}
	admin0, _ := first[4].(map[string]any)["keyId"].(string)
	want = append(want, admin0) // the account's first key, made before the others

	var got []string
	path := "/api/v1/api-keys?limit=2"
	for pages := 1; ; pages++ {
		r := ts.get(path, admin)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
		body := r.json(t)
		keys, _ := body["keys"].([]any)
		for _, k := range keys {
			id, _ := k.(map[string]any)["keyId"].(string)
			got = append(got, id)
		}
		if g, _ := body["grantableScopes"].([]any); len(g) != len(account.Scopes()) {
			t.Errorf("grantableScopes = %v; want every scope for a pro key holding them all", body["grantableScopes"])
		}
		next, ok := body["nextCursor"].(string)
		if !ok {
			if body["nextCursor"] != nil || pages != 3 || len(keys) != 1 {
				t.Errorf("last page %d: nextCursor %v, %d keys; want null on page 3 of 1 key", pages, body["nextCursor"], len(keys))
			}
			break
		}
		if len(keys) != 2 || pages >= 3 {
			t.Fatalf("page %d: %d keys and a next page", pages, len(keys))
		}
		path = "/api/v1/api-keys?limit=2&cursor=" + next
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("listing = %v; want %v", got, want)
	}
	if all, _ := ts.get("/api/v1/api-keys", admin).json(t)["keys"].([]any); len(all) != len(want) {
		t.Errorf("default page: %d keys; want all %d", len(all), len(want))
	}

	for q, field := range map[string]string{
		"?limit=0": "limit", "?limit=101": "limit", "?limit=-1": "limit", "?limit=two": "limit", "?limit=": "",
		"?cursor=bm90LWEtY3Vyc29y": "cursor", "?cursor=%25%25": "cursor",
	} {
		r := ts.get("/api/v1/api-keys"+q, admin)
		if field == "" {
			if r.status != 200 {
				t.Errorf("%s: %d; an empty limit is the default", q, r.status)
			}
			continue
		}
		if e := wantError(t, r, 400, "bad_request"); e.Details["field"] != field {
			t.Errorf("%s: details %v; want field %s", q, e.Details, field)
		}
	}
}

// TestAPIKeysGrantableScopes: the listing offers the scopes createAPIKey
// would grant: a free+ account's routes need no webhook scope, and a key
// offers only the scopes it holds.
func TestAPIKeysGrantableScopes(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, free := ts.account("free@example.com", account.TierFreePlus, nil)
	a, _ := ts.account("narrow@example.com", account.TierPro, nil)
	_, narrow := ts.mustKey(a.ID, account.NewKey{Name: "n", Scopes: []string{account.ScopeKeysRead, account.ScopeUsageRead}})
	tests := []struct {
		name, secret string
		want         []string
	}{
		{"free+", free, []string{account.ScopeProcessWrite, account.ScopeAccountRead, account.ScopeUsageRead,
			account.ScopeKeysRead, account.ScopeKeysWrite, account.ScopeExportsRead, account.ScopeExportsWrite}},
		{"a key with two scopes", narrow, []string{account.ScopeUsageRead, account.ScopeKeysRead}},
	}
	for _, tt := range tests {
		got := ts.get("/api/v1/api-keys", tt.secret).json(t)["grantableScopes"]
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: grantableScopes = %v; want %v", tt.name, got, tt.want)
		}
	}
}
