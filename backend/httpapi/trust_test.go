package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/server"
)

// desktop sends a request through the desktop handler in-process, as the
// Wails asset server does (Host "wails", origin wails://wails).
func (ts *testServer) desktop(method, path, body, ctype string) response {
	ts.t.Helper()
	req := httptest.NewRequest(method, "http://wails"+path, strings.NewReader(body))
	req.Header.Set("Origin", "wails://wails")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	rec := httptest.NewRecorder()
	ts.srv.DesktopHandler().ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// TestDesktopActsAsOwner: through the desktop handler every request acts
// as the owner without any credential; the TCP listener still demands one.
func TestDesktopActsAsOwner(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.srv.Owner().Email

	r := ts.desktop("GET", "/api/v1/me", "", "")
	if r.status != 200 {
		t.Fatalf("desktop /me: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"email": owner, "tier": "pro"})
	wantError(t, ts.get("/api/v1/me", ""), 401, "unauthorized")
	// A Host of "wails" on the network is refused outright.
	req, _ := http.NewRequest("GET", ts.URL+"/api/v1/me", nil)
	req.Host = "wails"
	wantError(t, ts.send(req, true), 403, "forbidden")

	// Key management needs no CSRF token in the window.
	r = ts.desktop("POST", "/api/v1/api-keys", `{"name":"desktop","scopes":["keys:read"]}`, "application/json")
	if r.status != 201 {
		t.Fatalf("desktop create key: %d %s", r.status, r.body)
	}
	keyID, _ := r.json(t)["keyId"].(string)
	if r := ts.desktop("DELETE", "/api/v1/api-keys/"+keyID, "", ""); r.status != 200 {
		t.Fatalf("desktop revoke key: %d %s", r.status, r.body)
	}
	wantError(t, ts.do(request{method: "DELETE", path: "/api/v1/api-keys/" + keyID}), 401, "unauthorized")

	r = ts.desktop("GET", "/api/session", "", "")
	if r.status != 200 {
		t.Fatalf("desktop session: %d %s", r.status, r.body)
	}
	wantFields(t, r.json(t), map[string]any{"email": owner, "desktop": true, "csrfToken": ""})

	// The homepage converter works in the window without its browser
	// guards, and the Pro owner runs it uncounted, past any daily cap.
	for i := range 7 {
		body, ctype := form(t, readySRT, nil)
		r = ts.desktop("POST", "/api/process", body.String(), ctype)
		if r.status != 200 {
			t.Fatalf("desktop homepage converter, run %d: %d %s", i+1, r.status, r.body)
		}
		if _, ok := r.json(t)["remainingToday"]; ok {
			t.Fatalf("desktop run %d counted: %s", i+1, r.body)
		}
	}
	// And the UI itself.
	if r := ts.desktop("GET", "/", "", ""); r.status != 200 || !strings.Contains(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("desktop /: %d %s", r.status, r.header.Get("Content-Type"))
	}
}

// TestDesktopEntitlementsApply: the owner's account settings still bind
// the window.
func TestDesktopEntitlementsApply(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	none := []string{account.FeatureAPIV1, account.FeatureAPIKeys}
	if _, err := ts.accounts.UpdateAccount(t.Context(), ts.srv.Owner().Email, account.AccountUpdate{Features: &none}); err != nil {
		t.Fatal(err)
	}
	e := wantError(t, ts.desktop("GET", "/api/v1/webhook", "", ""), 403, "forbidden")
	if e.Details["missingFeature"] != account.FeatureProWorkspace {
		t.Errorf("details = %v", e.Details)
	}
}

// TestHostCheck: the TCP listener answers loopback names and the
// configured ones only (DNS-rebinding guard).
func TestHostCheck(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(cfg *server.Config) { cfg.AllowedHosts = []string{"captionqa.lan"} })
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:" + port, true},
		{"localhost:" + port, true},
		{"LOCALHOST.:" + port, true},
		{"[::1]:" + port, true},
		{"localhost", true},
		{"captionqa.lan:" + port, true},
		{"evil.example", false},
		{"evil.example:" + port, false},
		{"127.0.0.1.evil.example:" + port, false},
		{"localhost.evil.example", false},
		{"wails", false},
	} {
		t.Run(c.host, func(t *testing.T) {
			for _, path := range []string{"/healthz", "/api/v1/openapi.json", "/"} {
				req, _ := http.NewRequest("GET", ts.URL+path, nil)
				req.Host = c.host
				r := ts.send(req, true)
				if c.ok {
					if r.status != 200 {
						t.Errorf("%s: %d %s", path, r.status, r.body)
					}
					continue
				}
				e := wantError(t, r, 403, "forbidden")
				if e.Details["reason"] != "host" {
					t.Errorf("%s: details = %v", path, e.Details)
				}
			}
		})
	}
}

// TestTrustNeedsTheWrapper: a request on the listener that imitates the
// desktop window in every visible way is still a stranger.
func TestTrustNeedsTheWrapper(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/api-keys", strings.NewReader(`{"name":"x"}`))
	req.Header.Set("Origin", "wails://wails")
	req.Header.Set("User-Agent", "Mozilla/5.0 wails.io/605.1.15")
	res, err := ts.raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	wantError(t, response{status: res.StatusCode, body: b}, 401, "unauthorized")
}
