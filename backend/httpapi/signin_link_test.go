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

const linkPassword = "a password from the link"

// ownerLink makes a one-time sign-in link for the owner account the
// server created, and returns its token.
func (ts *testServer) ownerLink() string {
	ts.t.Helper()
	ctx := context.Background()
	owner, err := ts.accounts.Owner(ctx)
	if err != nil {
		ts.t.Fatal(err)
	}
	token, _, err := ts.accounts.CreateSignInLink(ctx, owner.ID)
	if err != nil {
		ts.t.Fatal(err)
	}
	return token
}

// postLink posts a link's token and a password as the sign-in page does
// (same Origin unless header says otherwise).
func (ts *testServer) postLink(token, pw string, header http.Header) response {
	ts.t.Helper()
	body, _ := json.Marshal(map[string]string{"token": token, "password": pw})
	h := http.Header{"Origin": {ts.URL}}
	for k, v := range header {
		h[k] = v
	}
	return ts.do(request{method: "POST", path: "/api/session/link", body: strings.NewReader(string(body)),
		contentType: "application/json", header: h})
}

func TestSignInLinkRoute(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.srv.Owner()
	token := ts.ownerLink()

	// A password the account may not have leaves the link usable.
	e := wantError(t, ts.postLink(token, "short", nil), 400, "bad_request")
	if e.Details["field"] != "password" {
		t.Errorf("short password: details = %v", e.Details)
	}

	r := ts.postLink(token, linkPassword, nil)
	if r.status != 200 {
		t.Fatalf("use link: %d %s", r.status, r.body)
	}
	m := r.json(t)
	wantFields(t, m, map[string]any{"email": owner.Email, "tier": "pro", "desktop": false, "owner": true})
	csrf, _ := m["csrfToken"].(string)
	c := sessionCookie(r.header)
	if c == nil || len(c.Value) != 43 || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" ||
		c.MaxAge != int((12*time.Hour).Seconds()) || len(csrf) != 43 || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("cookie %+v, csrf %q, Cache-Control %q", c, csrf, r.header.Get("Cache-Control"))
	}

	// The session works, on v1 too, and the password signs in.
	got := ts.do(request{method: "GET", path: "/api/session", header: withSession(c, "")})
	if got.status != 200 {
		t.Fatalf("GET /api/session: %d %s", got.status, got.body)
	}
	wantFields(t, got.json(t), map[string]any{"email": owner.Email, "csrfToken": csrf, "owner": true})
	if r := ts.do(request{method: "GET", path: "/api/v1/me", header: withSession(c, "")}); r.status != 200 {
		t.Errorf("me with the link's session: %d %s", r.status, r.body)
	}
	if r := ts.do(request{method: "POST", path: "/api/v1/api-keys", header: withSession(c, csrf), contentType: "application/json",
		body: strings.NewReader(`{"name":"from the link","scopes":["usage:read"]}`)}); r.status != 201 {
		t.Errorf("create a key with the link's session: %d %s", r.status, r.body)
	}
	if r := ts.postLogin(owner.Email, linkPassword, nil); r.status != 200 {
		t.Errorf("sign in with the password the link set: %d %s", r.status, r.body)
	}

	// Used once: the same message as any dead link, naming the command.
	reused := ts.postLink(token, linkPassword, nil)
	e = wantError(t, reused, 401, "unauthorized")
	if !strings.Contains(e.Message, "captionqa owner link") || sessionCookie(reused.header) != nil {
		t.Errorf("reused link: message %q, cookie %v", e.Message, sessionCookie(reused.header))
	}
	unknown := wantError(t, ts.postLink(strings.Repeat("A", 43), linkPassword, nil), 401, "unauthorized")
	if unknown.Message != e.Message {
		t.Errorf("unknown link says %q, a used one %q; want one message", unknown.Message, e.Message)
	}

	// Expired after 15 minutes.
	late := ts.ownerLink()
	ts.clock.Advance(account.SignInLinkTTL)
	if e := wantError(t, ts.postLink(late, linkPassword, nil), 401, "unauthorized"); e.Message != unknown.Message {
		t.Errorf("expired link says %q", e.Message)
	}

	t.Run("another origin", func(t *testing.T) {
		tok := ts.ownerLink()
		e := wantError(t, ts.postLink(tok, linkPassword, http.Header{"Origin": {"https://evil.example"}}), 403, "forbidden")
		if e.Details["reason"] != "origin" {
			t.Errorf("details = %v", e.Details)
		}
		// Refused before it was tried: the link still works.
		if r := ts.postLink(tok, linkPassword, nil); r.status != 200 {
			t.Errorf("the link after a cross-origin try: %d %s", r.status, r.body)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		wantError(t, ts.do(request{method: "POST", path: "/api/session/link", body: strings.NewReader("token=x"),
			contentType: "application/x-www-form-urlencoded"}), 400, "bad_request")
	})
	t.Run("GET is not allowed", func(t *testing.T) {
		r := ts.do(request{method: "GET", path: "/api/session/link", raw: true})
		if r.status != 405 || !strings.Contains(r.header.Get("Allow"), "POST") {
			t.Errorf("GET: %d, Allow %q", r.status, r.header.Get("Allow"))
		}
	})
}

// TestSignInLinkThrottle: dead tokens from one address are slowed down,
// and while the pause lasts even a live link waits, so a guesser learns
// nothing from it.
func TestSignInLinkThrottle(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	token := ts.ownerLink()
	var r response
	for i := range 20 {
		r = ts.postLink(strings.Repeat(string(rune('A'+i)), 43), linkPassword, nil)
		if r.status == 429 {
			break
		}
		wantError(t, r, 401, "unauthorized")
	}
	wantError(t, r, 429, "rate_limited")
	r = ts.postLink(token, linkPassword, nil)
	wantError(t, r, 429, "rate_limited")
	if wait, _ := strconv.Atoi(r.header.Get("Retry-After")); wait < 1 || wait > 4 {
		t.Fatalf("Retry-After = %q; want 1 to 4 s", r.header.Get("Retry-After"))
	}
	// Password sign-in is throttled apart: the owner is not locked out.
	a := ts.withPassword("someone@example.com", account.TierPro)
	if r := ts.postLogin(a.Email, password, nil); r.status != 200 {
		t.Errorf("password sign-in during the link pause: %d %s", r.status, r.body)
	}
	ts.clock.Advance(4 * time.Second)
	if r := ts.postLink(token, linkPassword, nil); r.status != 200 {
		t.Errorf("after the pause: %d %s", r.status, r.body)
	}
}

// TestSignedOutOwnerEmail: a signed-out GET /api/session from this
// machine names the owner account; from anywhere else it does not.
func TestSignedOutOwnerEmail(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.srv.Owner()
	bogus := &http.Cookie{Name: httpapi.SessionCookie, Value: strings.Repeat("A", 43)}
	for name, h := range map[string]http.Header{"no cookie": nil, "dead cookie": withSession(bogus, "")} {
		e := wantError(t, ts.do(request{method: "GET", path: "/api/session", header: h}), 401, "unauthorized")
		if e.Details["ownerEmail"] != owner.Email {
			t.Errorf("%s, loopback: details = %v; want ownerEmail %s", name, e.Details, owner.Email)
		}
	}

	// Another machine: the same 401 without the detail, whatever it claims.
	for name, h := range map[string]http.Header{
		"no cookie":       nil,
		"dead cookie":     withSession(bogus, ""),
		"forwarded claim": {"X-Forwarded-For": {"127.0.0.1"}, "X-Real-Ip": {"127.0.0.1"}},
	} {
		req := httptest.NewRequest("GET", "http://localhost/api/session", nil)
		req.RemoteAddr = "203.0.113.7:52100"
		for k, v := range h {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		ts.srv.Handler().ServeHTTP(rec, req)
		r := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		if e := wantError(t, r, 401, "unauthorized"); e.Details["ownerEmail"] != nil {
			t.Errorf("%s, remote client: details = %v; want no ownerEmail", name, e.Details)
		}
	}

	// Signed in, the session says whether its account is the owner.
	other := ts.withPassword("other@example.com", account.TierPro)
	c, _ := ts.login(other.Email)
	r := ts.do(request{method: "GET", path: "/api/session", header: withSession(c, "")})
	if r.status != 200 {
		t.Fatalf("GET /api/session: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"email": other.Email, "owner": false})
}
