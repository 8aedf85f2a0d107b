package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/server"
)

// postKey posts a key creation body with a Bearer key (secret) or the
// headers of a dashboard session.
func (ts *testServer) postKey(secret string, header http.Header, body string) response {
	ts.t.Helper()
	return ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: secret, header: header,
		body: strings.NewReader(body), contentType: "application/json"})
}

// TestKeyLifetime: a key minted by a key cannot outlive it, and no key
// lives longer than the maximum lifetime.
func TestKeyLifetime(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("lifetime@example.com", account.TierPro)
	// The parent: keys:write, expiring in 10 days.
	parentExpiry := start.Add(10 * 24 * time.Hour)
	_, parent := ts.mustKey(a.ID, account.NewKey{Name: "parent", Scopes: account.Scopes(), ExpiresAt: &parentExpiry})
	c, csrf := ts.login(a.Email)
	session := withSession(c, csrf)
	const scopes = `"scopes":["usage:read"]`
	tests := []struct {
		name         string
		secret       string
		header       http.Header
		expiresAt    string // "" for none
		wantExpires  string // 201 with this expiresAt
		wantReason   string // or 400 with details.field expiresAt and this reason
		wantNotAfter string
	}{
		{name: "key: year 9999", secret: parent, expiresAt: "9999-12-31T00:00:00Z",
			wantReason: "parent_expiry", wantNotAfter: "2026-03-20T12:00:00Z"},
		{name: "key: a second after its own expiry", secret: parent, expiresAt: "2026-03-20T12:00:01Z",
			wantReason: "parent_expiry", wantNotAfter: "2026-03-20T12:00:00Z"},
		{name: "key: its own expiry", secret: parent, expiresAt: "2026-03-20T12:00:00Z", wantExpires: "2026-03-20T12:00:00Z"},
		{name: "key: earlier", secret: parent, expiresAt: "2026-03-11T12:00:00Z", wantExpires: "2026-03-11T12:00:00Z"},
		{name: "key: default lifetime cut to its own", secret: parent, wantExpires: "2026-03-20T12:00:00Z"},
		{name: "session: year 9999", header: session, expiresAt: "9999-12-31T00:00:00Z",
			wantReason: "max_lifetime", wantNotAfter: "2027-03-10T12:00:00Z"},
		{name: "session: a year and a second", header: session, expiresAt: "2027-03-10T12:00:01Z",
			wantReason: "max_lifetime", wantNotAfter: "2027-03-10T12:00:00Z"},
		{name: "session: a year", header: session, expiresAt: "2027-03-10T12:00:00Z", wantExpires: "2027-03-10T12:00:00Z"},
		{name: "session: default lifetime", header: session, wantExpires: "2026-06-08T12:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"name":"child",` + scopes + `}`
			if tt.expiresAt != "" {
				body = `{"name":"child",` + scopes + `,"expiresAt":"` + tt.expiresAt + `"}`
			}
			r := ts.postKey(tt.secret, tt.header, body)
			if tt.wantReason == "" {
				if r.status != http.StatusCreated {
					t.Fatalf("status %d; want 201\n%s", r.status, r.body)
				}
				wantFields(t, r.json(t), map[string]any{"expiresAt": tt.wantExpires})
				return
			}
			e := wantError(t, r, 400, "bad_request")
			if e.Details["field"] != "expiresAt" || e.Details["reason"] != tt.wantReason || e.Details["notAfter"] != tt.wantNotAfter ||
				!strings.Contains(e.Message, tt.wantNotAfter) {
				t.Errorf("details %v, message %q; want field expiresAt, reason %s, notAfter %s named in the message",
					e.Details, e.Message, tt.wantReason, tt.wantNotAfter)
			}
		})
	}
}

// TestKeyCap: an account holds at most account.MaxActiveKeys active keys;
// one more is 409 conflict until one is revoked.
func TestKeyCap(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, admin := ts.account("cap@example.com", account.TierPro, nil)
	var last string
	for range account.MaxActiveKeys - 1 {
		k, _ := ts.mustKey(a.ID, account.NewKey{Name: "filler", Scopes: []string{account.ScopeUsageRead}})
		last = k.ID
	}
	body := `{"name":"one more","scopes":["usage:read"]}`
	post := func() response {
		return ts.do(request{method: "POST", path: "/api/v1/api-keys", secret: admin,
			body: strings.NewReader(body), contentType: "application/json"})
	}
	e := wantError(t, post(), http.StatusConflict, "conflict")
	if e.Details["limit"] != float64(account.MaxActiveKeys) || e.Details["reason"] != "key_limit" ||
		!strings.Contains(e.Message, fmt.Sprint(account.MaxActiveKeys)) {
		t.Errorf("details %v, message %q; want limit %d and reason key_limit", e.Details, e.Message, account.MaxActiveKeys)
	}
	if r := ts.do(request{method: "DELETE", path: "/api/v1/api-keys/" + last, secret: admin}); r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	if r := post(); r.status != http.StatusCreated {
		t.Fatalf("after a revocation: %d %s", r.status, r.body)
	}
	wantError(t, post(), http.StatusConflict, "conflict")
}

// TestAccountBurst: the keys of one account share a burst twice a key's,
// so minting keys does not multiply it.
func TestAccountBurst(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(cfg *server.Config) { cfg.Burst, cfg.BurstPerSecond = 2, 0.5 })
	a, k1 := ts.account("burst@example.com", account.TierPro, nil)
	_, k2 := ts.mustKey(a.ID, account.NewKey{Name: "k2", Scopes: account.Scopes()})
	_, k3 := ts.mustKey(a.ID, account.NewKey{Name: "k3", Scopes: account.Scopes()})
	_, other := ts.account("other-burst@example.com", account.TierPro, nil)
	within := func(secrets ...string) {
		t.Helper()
		for _, secret := range secrets {
			if r := ts.get("/api/v1/usage", secret); r.status != 200 {
				t.Fatalf("within the burst: %d %s", r.status, r.body)
			}
		}
	}
	within(k1, k1)
	// k1 is past its own burst; the account is not.
	if e := wantError(t, ts.get("/api/v1/usage", k1), 429, "rate_limited"); e.Details["bucket"] != nil {
		t.Errorf("a key's own limit: details %v", e.Details)
	}
	within(k2, k2)
	// k3 has used nothing, but the account has used its 4.
	r := ts.get("/api/v1/usage", k3)
	e := wantError(t, r, 429, "rate_limited")
	if e.Details["bucket"] != "account" || e.Details["retryAfterSeconds"] != float64(1) || r.header.Get("Retry-After") != "1" {
		t.Errorf("details %v, Retry-After %q; want bucket account, 1 s", e.Details, r.header.Get("Retry-After"))
	}
	// Another account is not affected, and the account refills at twice
	// a key's rate.
	if r := ts.get("/api/v1/usage", other); r.status != 200 {
		t.Errorf("another account: %d %s", r.status, r.body)
	}
	ts.clock.Advance(time.Second)
	if r := ts.get("/api/v1/usage", k3); r.status != 200 {
		t.Errorf("after a second: %d %s", r.status, r.body)
	}
}

// TestKeyNameUnsafeCharacters: a key name may hold no control,
// bidirectional or invisible format character.
func TestKeyNameUnsafeCharacters(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	admin := ts.pro("names@example.com")
	for _, n := range []string{`a\u0000b`, `ok\u001b[2J`, `key\u202etxt.exe`, `\u2066x\u2069`, `line\nbreak`, `ad\u200bmin`} {
		e := wantError(t, ts.postKey(admin, nil, `{"name":"`+n+`","scopes":["usage:read"]}`), 400, "bad_request")
		if e.Details["field"] != "name" || e.Details["reason"] != "unsafe_character" {
			t.Errorf("%s: details %v", n, e.Details)
		}
	}
	r := ts.postKey(admin, nil, `{"name":"字幕 ترجمة 👩\u200d💻","scopes":["usage:read"]}`)
	if r.status != http.StatusCreated {
		t.Fatalf("a name in other scripts: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"name": "字幕 ترجمة 👩\u200d💻"})
}
