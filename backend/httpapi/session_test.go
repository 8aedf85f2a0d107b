package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
)

const password = "a dashboard password"

// withPassword creates an account of tier with every scope's key and sets
// its dashboard password.
func (ts *testServer) withPassword(email, tier string, features ...string) *account.Account {
	ts.t.Helper()
	a, _ := ts.account(email, tier, nil, features...)
	if _, err := ts.accounts.SetPassword(context.Background(), email, password); err != nil {
		ts.t.Fatalf("set password: %v", err)
	}
	return a
}

// postLogin posts the credentials as the browser UI does (same Origin).
func (ts *testServer) postLogin(email, pw string, header http.Header) response {
	ts.t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": pw})
	h := http.Header{"Origin": {ts.URL}}
	for k, v := range header {
		h[k] = v
	}
	return ts.do(request{method: "POST", path: "/api/session", body: strings.NewReader(string(body)),
		contentType: "application/json", header: h})
}

// login signs in and returns the session cookie and CSRF token.
func (ts *testServer) login(email string) (*http.Cookie, string) {
	ts.t.Helper()
	r := ts.postLogin(email, password, nil)
	if r.status != 200 {
		ts.t.Fatalf("login: %d %s", r.status, r.body)
	}
	c := sessionCookie(r.header)
	csrf, _ := r.json(ts.t)["csrfToken"].(string)
	if c == nil || csrf == "" {
		ts.t.Fatalf("login: cookie %v, csrf %q", c, csrf)
	}
	return c, csrf
}

func sessionCookie(h http.Header) *http.Cookie {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == httpapi.SessionCookie {
			return c
		}
	}
	return nil
}

// withSession is a request of the signed-in browser UI: the cookie and,
// when csrf is not empty, the CSRF header.
func withSession(c *http.Cookie, csrf string) http.Header {
	h := http.Header{"Cookie": {c.Name + "=" + c.Value}}
	if csrf != "" {
		h.Set(httpapi.CSRFHeader, csrf)
	}
	return h
}

func TestLogin(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("ui@example.com", account.TierPro)
	ts.account("nopw@example.com", account.TierPro, nil)

	r := ts.postLogin(" UI@example.com", password, nil)
	if r.status != 200 {
		t.Fatalf("login: %d %s", r.status, r.body)
	}
	m := r.json(t)
	wantFields(t, m, map[string]any{"email": a.Email, "tier": "pro", "desktop": false})
	csrf, _ := m["csrfToken"].(string)
	c := sessionCookie(r.header)
	if c == nil || len(c.Value) != 43 || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure ||
		c.MaxAge != int((12*time.Hour).Seconds()) {
		t.Fatalf("cookie = %+v", c)
	}
	if len(csrf) != 43 || csrf == c.Value || r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("csrf %q, Cache-Control %q", csrf, r.header.Get("Cache-Control"))
	}
	got := ts.do(request{method: "GET", path: "/api/session", header: withSession(c, "")})
	if got.status != 200 {
		t.Fatalf("GET /api/session: %d %s", got.status, got.body)
	}
	wantFields(t, got.json(t), map[string]any{"email": a.Email, "tier": "pro", "csrfToken": csrf, "desktop": false})

	for _, f := range []struct{ name, email, pw string }{
		{"wrong password", a.Email, password + "x"},
		{"unknown email", "nobody@example.com", password},
		{"account without a password", "nopw@example.com", password},
		{"empty", "", ""},
	} {
		t.Run(f.name, func(t *testing.T) {
			r := ts.postLogin(f.email, f.pw, nil)
			e := wantError(t, r, 401, "unauthorized")
			if e.Message != "invalid email or password" || sessionCookie(r.header) != nil {
				t.Errorf("message %q, cookie %v", e.Message, sessionCookie(r.header))
			}
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		wantError(t, ts.do(request{method: "POST", path: "/api/session", body: strings.NewReader("email=x"),
			contentType: "application/x-www-form-urlencoded"}), 400, "bad_request")
	})
	t.Run("another origin", func(t *testing.T) {
		e := wantError(t, ts.postLogin(a.Email, password, http.Header{"Origin": {"https://evil.example"}}), 403, "forbidden")
		if e.Details["reason"] != "origin" {
			t.Errorf("details = %v", e.Details)
		}
	})
	t.Run("no session", func(t *testing.T) {
		wantError(t, ts.get("/api/session", ""), 401, "unauthorized")
		bogus := &http.Cookie{Name: httpapi.SessionCookie, Value: strings.Repeat("A", 43)}
		wantError(t, ts.do(request{method: "GET", path: "/api/session", header: withSession(bogus, "")}), 401, "unauthorized")
	})
}

// TestLoginCookieSecureOverTLS: the cookie is Secure when the request came
// over TLS.
func TestLoginCookieSecureOverTLS(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ts.withPassword("tls@example.com", account.TierPro)
	hs := httptest.NewTLSServer(ts.srv.Handler())
	defer hs.Close()
	req, _ := http.NewRequest("POST", hs.URL+"/api/session",
		strings.NewReader(`{"email":"tls@example.com","password":"`+password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if c := sessionCookie(res.Header); res.StatusCode != 200 || c == nil || !c.Secure || !c.HttpOnly {
		t.Errorf("over TLS: %d, cookie %+v", res.StatusCode, c)
	}
}

// TestSessionOnV1 drives /me and key management with the dashboard
// session instead of a key (docs/api.md, Browser sessions).
func TestSessionOnV1(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("dash@example.com", account.TierPro)
	c, csrf := ts.login(a.Email)

	r := ts.do(request{method: "GET", path: "/api/v1/me", header: withSession(c, "")})
	if r.status != 200 {
		t.Fatalf("me: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"email": a.Email, "tier": "pro"})
	if r := ts.do(request{method: "GET", path: "/api/v1/api-keys", header: withSession(c, "")}); r.status != 200 {
		t.Fatalf("list keys: %d %s", r.status, r.body)
	}

	create := func(h http.Header) response {
		return ts.do(request{method: "POST", path: "/api/v1/api-keys", header: h, contentType: "application/json",
			body: strings.NewReader(`{"name":"from the UI","scopes":["keys:read","webhooks:write"]}`)})
	}
	for name, h := range map[string]http.Header{
		"no CSRF header": withSession(c, ""),
		"wrong token":    withSession(c, strings.Repeat("x", 43)),
		"cookie's value": withSession(c, c.Value),
	} {
		e := wantError(t, create(h), 403, "forbidden")
		if e.Details["reason"] != "csrf" {
			t.Errorf("%s: details = %v", name, e.Details)
		}
	}
	r = create(withSession(c, csrf))
	if r.status != 201 {
		t.Fatalf("create with CSRF: %d %s", r.status, r.body)
	}
	keyID, _ := r.json(t)["keyId"].(string)
	path := "/api/v1/api-keys/" + keyID
	e := wantError(t, ts.do(request{method: "DELETE", path: path, header: withSession(c, "")}), 403, "forbidden")
	if e.Details["reason"] != "csrf" {
		t.Errorf("revoke without CSRF: details = %v", e.Details)
	}
	if r := ts.do(request{method: "DELETE", path: path, header: withSession(c, csrf)}); r.status != 200 {
		t.Fatalf("revoke with CSRF: %d %s", r.status, r.body)
	}

	// An Authorization header wins over the cookie: integrations use
	// Bearer only, and a bad key is not rescued by a browser session.
	h := withSession(c, csrf)
	h.Set("Authorization", "Bearer not-a-key")
	wantError(t, ts.do(request{method: "GET", path: "/api/v1/me", header: h}), 401, "unauthorized")

	// Entitlements still apply to a session.
	free := ts.withPassword("free@example.com", account.TierFreePlus)
	fc, _ := ts.login(free.Email)
	e = wantError(t, ts.do(request{method: "GET", path: "/api/v1/webhook", header: withSession(fc, "")}), 403, "forbidden")
	if e.Details["missingFeature"] != account.FeatureProWorkspace {
		t.Errorf("free session on /webhook: details = %v", e.Details)
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("out@example.com", account.TierPro)
	c, csrf := ts.login(a.Email)

	e := wantError(t, ts.do(request{method: "DELETE", path: "/api/session", header: withSession(c, "")}), 403, "forbidden")
	if e.Details["reason"] != "csrf" {
		t.Errorf("logout without CSRF: details = %v", e.Details)
	}
	r := ts.do(request{method: "DELETE", path: "/api/session", header: withSession(c, csrf)})
	if r.status != 204 {
		t.Fatalf("logout: %d %s", r.status, r.body)
	}
	if cleared := sessionCookie(r.header); cleared == nil || cleared.MaxAge >= 0 || cleared.Value != "" {
		t.Errorf("logout cookie = %+v; want it cleared", cleared)
	}
	wantError(t, ts.do(request{method: "GET", path: "/api/v1/me", header: withSession(c, "")}), 401, "unauthorized")
	wantError(t, ts.do(request{method: "GET", path: "/api/session", header: withSession(c, "")}), 401, "unauthorized")
	// Signing out again, or without a session, is fine.
	if r := ts.do(request{method: "DELETE", path: "/api/session", header: withSession(c, csrf)}); r.status != 204 {
		t.Errorf("second logout: %d", r.status)
	}
	if r := ts.do(request{method: "DELETE", path: "/api/session"}); r.status != 204 {
		t.Errorf("logout without a cookie: %d", r.status)
	}
}

func TestSessionExpires(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("expiry@example.com", account.TierPro)
	c, _ := ts.login(a.Email)
	ts.clock.Advance(12*time.Hour - time.Second)
	if r := ts.do(request{method: "GET", path: "/api/v1/me", header: withSession(c, "")}); r.status != 200 {
		t.Fatalf("a second before expiry: %d %s", r.status, r.body)
	}
	ts.clock.Advance(time.Second)
	wantError(t, ts.do(request{method: "GET", path: "/api/v1/me", header: withSession(c, "")}), 401, "unauthorized")
	wantError(t, ts.do(request{method: "GET", path: "/api/session", header: withSession(c, "")}), 401, "unauthorized")
}

// TestLoginThrottle: on a workstation every local process signs in from
// 127.0.0.1. Many wrong passwords slow down attempts on that account
// only, and the owner's correct password waits at most a few seconds.
func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a := ts.withPassword("owner@example.com", account.TierPro)
	other := ts.withPassword("other@example.com", account.TierPro)
	var r response
	for i := range 20 {
		r = ts.postLogin(a.Email, "wrong password "+string(rune('a'+i)), nil)
		if r.status == 429 {
			break
		}
		wantError(t, r, 401, "unauthorized")
	}
	// The pause holds for the right password too, so it tells nothing.
	r = ts.postLogin(a.Email, password, nil)
	wantError(t, r, 429, "rate_limited")
	wait, _ := strconv.Atoi(r.header.Get("Retry-After"))
	if wait < 1 || wait > 4 {
		t.Fatalf("Retry-After = %q; want 1 to 4 s", r.header.Get("Retry-After"))
	}
	// Another account from the same address is not held up.
	if r := ts.postLogin(other.Email, password, nil); r.status != 200 {
		t.Errorf("another account: %d %s", r.status, r.body)
	}
	// A guesser that keeps going never pushes the pause past 4 s.
	for range 30 {
		ts.clock.Advance(4 * time.Second)
		wantError(t, ts.postLogin(a.Email, "still guessing", nil), 401, "unauthorized")
	}
	ts.clock.Advance(4 * time.Second)
	if r := ts.postLogin(a.Email, password, nil); r.status != 200 {
		t.Errorf("after at most 4 s: %d %s", r.status, r.body)
	}
}
