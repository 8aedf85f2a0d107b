package httpapi_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/captionqa/captionqa/backend/server"
)

const uiIndex = "<!doctype html><title>CaptionQA UI</title><script src=\"/app.js\"></script>"

func withUI(ui fstest.MapFS) func(*server.Config) {
	return func(cfg *server.Config) { cfg.UI = ui }
}

func TestUIServed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, withUI(fstest.MapFS{
		"index.html":      {Data: []byte(uiIndex)},
		"app.js":          {Data: []byte("console.log('ui')")},
		"assets/logo.svg": {Data: []byte("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")},
	}))
	for _, c := range []struct {
		path, wantBody, wantType string
		index                    bool
	}{
		{"/", uiIndex, "text/html", true},
		{"/index.html", uiIndex, "text/html", true},
		{"/app.js", "console.log('ui')", "text/javascript", false},
		{"/assets/logo.svg", "<svg", "image/svg+xml", false},
		{"/projects/7d444840/report", uiIndex, "text/html", true}, // client-side route
		{"/assets", uiIndex, "text/html", true},                   // a folder is not a file
		{"/../../etc/passwd", uiIndex, "text/html", true},
	} {
		r := ts.do(request{method: "GET", path: c.path, raw: true})
		if r.status != 200 || !strings.HasPrefix(string(r.body), c.wantBody) || !strings.HasPrefix(r.header.Get("Content-Type"), c.wantType) {
			t.Errorf("GET %s: %d %q %s", c.path, r.status, r.header.Get("Content-Type"), r.body)
		}
		if got := r.header.Get("Cache-Control"); c.index && got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q; want no-cache", c.path, got)
		}
	}
	if r := ts.do(request{method: "HEAD", path: "/some/route", raw: true}); r.status != 200 || len(r.body) != 0 {
		t.Errorf("HEAD: %d %q", r.status, r.body)
	}
	// The API never falls back to the UI.
	for _, p := range []string{"/api/v1/nope", "/api/nope", "/api", "/api/v1/api-keys/x/y",
		"//api/v1/usage", "/API/V1/ME", "/Api", "/apix/v1/me", "/./api/v1/me", "/x/../api/v1/me"} {
		wantError(t, ts.do(request{method: "GET", path: p, raw: true}), 404, "not_found")
	}
	// Nor does a file the build lacks.
	for _, p := range []string{"/missing.js", "/assets/old-build.css"} {
		wantError(t, ts.do(request{method: "GET", path: p, raw: true}), 404, "not_found")
	}
	if r := ts.get("/healthz", ""); r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("/healthz: %d %s", r.status, r.header.Get("Content-Type"))
	}
}

func TestUINotBuilt(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, withUI(fstest.MapFS{".gitkeep": {}}))
	for _, p := range []string{"/", "/projects/1"} {
		r := ts.do(request{method: "GET", path: p, raw: true})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(string(r.body), "The CaptionQA UI is not built: run <code>make run</code> (or <code>go run ./frontend/bundle</code>)") {
			t.Errorf("GET %s: %d %s", p, r.status, r.body)
		}
	}
	if r := ts.do(request{method: "GET", path: "/.gitkeep", raw: true}); r.status != 200 {
		t.Errorf("GET /.gitkeep: %d", r.status)
	}
}

// TestUIDefaultsToTheEmbeddedBuild: without a UI in the config the server
// serves frontend.Dist, built or not.
func TestUIDefaultsToTheEmbeddedBuild(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	r := ts.do(request{method: "GET", path: "/", raw: true})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "CaptionQA") {
		t.Errorf("GET /: %d %s %.200s", r.status, r.header.Get("Content-Type"), r.body)
	}
}
