package httpapi

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

// serveUI serves the browser UI for every GET or HEAD path no route
// claims: a file of [Options.UI] when one matches, index.html for "/" and
// for a path a client-side route of the single-page app may take, or a
// plain "not built" page when the UI has no index.html. Anything else is a
// 404 not_found envelope: a path that looks like the API's in any case or
// spelling (/API/V1/ME, //api/v1/usage, /apix), or a missing file.
func (h *handler) serveUI(c echo.Context) error {
	r, w := c.Request(), c.Response()
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if !uiPath(name) {
		if allow := h.methods.allowed(r.URL.Path); allow != nil {
			return wrongMethod(c, allow)
		}
		return echo.ErrNotFound
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if h.ui == nil {
		return h.uiPage(c, []byte(uiNotBuiltPage))
	}
	index, err := fs.ReadFile(h.ui, "index.html")
	if err != nil {
		return h.uiPage(c, []byte(uiNotBuiltPage))
	}
	if name != "" && name != "index.html" && !strings.HasSuffix(name, "/index.html") {
		if st, err := fs.Stat(h.ui, name); err == nil && !st.IsDir() {
			http.ServeFileFS(w, r, h.ui, name)
			return nil
		}
		if path.Ext(name) != "" {
			// A file name the build does not have: an asset of another
			// build, or a probe. The page would be the wrong answer.
			return echo.ErrNotFound
		}
	}
	return h.uiPage(c, index)
}

// uiPath reports whether the cleaned path name (no leading slash) may be
// the UI's: its first segment must not start with "api" in any case.
func uiPath(name string) bool {
	first, _, _ := strings.Cut(name, "/")
	return !strings.HasPrefix(strings.ToLower(first), "api")
}

// uiPage writes an HTML page of the UI. It is never cached without
// revalidation (a new build must show at once) and may not be framed.
func (h *handler) uiPage(c echo.Context, page []byte) error {
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Frame-Options", "DENY")
	return c.HTMLBlob(http.StatusOK, page)
}

// uiNotBuiltPage stands in for the UI in a build without it (go test
// before the bundler ran: dist/ holds only .gitkeep).
const uiNotBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CaptionQA</title></head>
<body><h1>CaptionQA</h1>
<p>The CaptionQA UI is not built: run <code>make run</code> (or <code>go run ./frontend/bundle</code>).</p>
<p>The caption QA service is running. The v1 API lives under <code>/api/v1</code>;
its contract is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></body></html>
`
