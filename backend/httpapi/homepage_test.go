package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
)

// csrf fetches a token and its cookie as a browser would.
func (ts *testServer) csrf() (token string, cookie *http.Cookie) {
	ts.t.Helper()
	r := ts.get("/api/csrf", "")
	if r.status != 200 {
		ts.t.Fatalf("GET /api/csrf: %d %s", r.status, r.body)
	}
	token, _ = r.json(ts.t)["token"].(string)
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == httpapi.CSRFCookie {
			cookie = c
		}
	}
	if token == "" || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		ts.t.Fatalf("token %q, cookie %+v", token, cookie)
	}
	return token, cookie
}

func TestHomepageConverter(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	token, cookie := ts.csrf()
	otherToken, _ := ts.csrf()
	post := func(h http.Header, c *http.Cookie) response {
		body, ctype := form(t, readySRT, nil)
		req, _ := http.NewRequest("POST", ts.URL+"/api/process", body)
		req.Header = h.Clone()
		req.Header.Set("Content-Type", ctype)
		if c != nil {
			req.AddCookie(c)
		}
		return ts.send(req, false)
	}
	browser := http.Header{"Origin": {ts.URL}, httpapi.CSRFHeader: {token}}
	fetchMeta := http.Header{"Sec-Fetch-Site": {"same-origin"}, httpapi.CSRFHeader: {token}}

	refusals := []struct {
		name   string
		header http.Header
		cookie *http.Cookie
	}{
		{"no origin and no fetch metadata", http.Header{httpapi.CSRFHeader: {token}}, cookie},
		{"foreign origin", http.Header{"Origin": {"https://evil.example"}, httpapi.CSRFHeader: {token}}, cookie},
		{"foreign origin despite fetch metadata", http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"same-origin"}, httpapi.CSRFHeader: {token}}, cookie},
		{"cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}, httpapi.CSRFHeader: {token}}, cookie},
		{"no token", http.Header{"Origin": {ts.URL}}, cookie},
		{"no cookie", browser, nil},
		{"token of another cookie", http.Header{"Origin": {ts.URL}, httpapi.CSRFHeader: {otherToken}}, cookie},
		{"forged token", http.Header{"Origin": {ts.URL}, httpapi.CSRFHeader: {"abc.def"}}, &http.Cookie{Name: httpapi.CSRFCookie, Value: "abc.def"}},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			e := wantError(t, post(c.header, c.cookie), 403, "forbidden")
			if e.Message != "the homepage converter is for the browser UI; integrations use /api/v1 with an API key" {
				t.Errorf("message = %q", e.Message)
			}
		})
	}

	for i := range 5 {
		h := browser
		if i%2 == 1 {
			h = fetchMeta
		}
		r := post(h, cookie)
		if r.status != 200 {
			t.Fatalf("run %d: %d %s", i+1, r.status, r.body)
		}
		m := r.json(t)
		wantFields(t, m, map[string]any{"remainingToday": float64(4 - i), "deliveryStatus": "ready"})
		if _, ok := m["remainingApiRunsToday"]; ok {
			t.Error("the homepage converter reports the v1 pool")
		}
	}
	wantError(t, post(browser, cookie), 429, "quota_exceeded")
}

// TestHomepageSignedIn: a signed-in Free+ account runs the homepage tool
// in its own pool, which it shares with v1; a Pro account runs it
// uncounted (docs/api.md, The homepage converter); neither touches the
// anonymous pool.
func TestHomepageSignedIn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ts.withPassword("free@example.com", account.TierFreePlus)
	ts.withPassword("pro@example.com", account.TierPro)
	token, csrfCookie := ts.csrf()
	post := func(session *http.Cookie) response {
		body, ctype := form(t, readySRT, nil)
		req, _ := http.NewRequest("POST", ts.URL+"/api/process", body)
		req.Header.Set("Origin", ts.URL)
		req.Header.Set(httpapi.CSRFHeader, token)
		req.Header.Set("Content-Type", ctype)
		req.AddCookie(csrfCookie)
		if session != nil {
			req.AddCookie(session)
		}
		return ts.send(req, false)
	}

	free, _ := ts.login("free@example.com")
	for i := range 2 {
		r := post(free)
		if r.status != 200 || r.json(t)["remainingToday"] != float64(9-i) {
			t.Fatalf("free run %d: %d %s; want 200 with %d left", i+1, r.status, r.body, 9-i)
		}
	}
	me := ts.do(request{method: "GET", path: "/api/v1/usage", header: withSession(free, "")}).json(t)
	wantFields(t, me, map[string]any{"usedToday": float64(2), "remainingToday": float64(8)})

	pro, _ := ts.login("pro@example.com")
	for i := range 3 {
		r := post(pro)
		if r.status != 200 {
			t.Fatalf("pro run %d: %d %s", i+1, r.status, r.body)
		}
		if _, ok := r.json(t)["remainingToday"]; ok {
			t.Errorf("pro run %d reports a count: %s", i+1, r.body)
		}
	}
	u := ts.do(request{method: "GET", path: "/api/v1/usage", header: withSession(pro, "")}).json(t)
	wantFields(t, u, map[string]any{"usedToday": float64(0)})

	// The anonymous pool is untouched, and an unknown session is anonymous.
	if r := post(nil); r.status != 200 || r.json(t)["remainingToday"] != float64(4) {
		t.Errorf("anonymous run: %d %s; want 4 left", r.status, r.body)
	}
	if r := post(&http.Cookie{Name: httpapi.SessionCookie, Value: "stale"}); r.status != 200 || r.json(t)["remainingToday"] != float64(3) {
		t.Errorf("run with a stale session: %d %s; want the anonymous pool, 3 left", r.status, r.body)
	}
}
