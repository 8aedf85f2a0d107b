package httpapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// routeMethods lists, for each route's path pattern, the methods it
// takes. The UI's GET fallback claims every path echo finds no GET route
// for, /api paths included, so a GET to a POST-only API route reaches the
// fallback rather than echo's 405: the fallback asks this table.
type routeMethods map[string][]string

func newRouteMethods(routes []*echo.Route) routeMethods {
	m := routeMethods{}
	for _, r := range routes {
		if r.Path == uiFallback || r.Path == "/" || !slices.Contains(routeVerbs, r.Method) {
			continue
		}
		if !slices.Contains(m[r.Path], r.Method) {
			m[r.Path] = append(m[r.Path], r.Method)
		}
	}
	return m
}

// routeVerbs are the methods routes are registered with (echo's Any and
// its 405 answer add OPTIONS and the rest, which no route serves); a
// read-only table.
var routeVerbs = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowed returns the methods of the routes whose pattern matches path,
// sorted, with OPTIONS (echo answers it for every route); nil when none.
func (m routeMethods) allowed(path string) []string {
	var out []string
	for pattern, methods := range m {
		if matchPattern(pattern, path) {
			for _, v := range methods {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	if out == nil {
		return nil
	}
	out = append(out, http.MethodOptions)
	slices.Sort(out)
	return out
}

// matchPattern reports whether path matches an echo route pattern, whose
// ":name" segments match any one segment and a final "*" the rest.
func matchPattern(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if p == "*" {
			return true
		}
		if i >= len(xs) || (!strings.HasPrefix(p, ":") && p != xs[i]) || (strings.HasPrefix(p, ":") && xs[i] == "") {
			return false
		}
	}
	return len(ps) == len(xs)
}

// wrongMethod is the answer to a method a route's path does not take:
// 405 method_not_allowed with the Allow header and details.allow.
func wrongMethod(c echo.Context, allow []string) error {
	c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
	return apperr.New(apperr.MethodNotAllowed, "This path does not take that method; it takes %s.", strings.Join(allow, ", ")).
		WithDetail("allow", allow)
}

// staticSibling answers 405 for a path that a static route takes with
// other methods, which echo hands to a parameter route beside it: GET
// /jobs/extract reaches GET /jobs/:jobId, yet the path is POST's (the
// OpenAPI operation createExtractJob), not a job's. It runs before
// authentication, as every other 405 does.
func (h *handler) staticSibling(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if methods, ok := h.methods[r.URL.Path]; ok && !slices.Contains(methods, r.Method) {
			allow := append(slices.Clone(methods), http.MethodOptions)
			slices.Sort(allow)
			return wrongMethod(c, allow)
		}
		return next(c)
	}
}
