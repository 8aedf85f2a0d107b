package httpapi

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// trustedKey marks the context of a request that came through
// [TrustLocal]. Only code can set it: nothing on the wire does.
type trustedKey struct{}

// TrustLocal wraps next (the router [New] returns) for the desktop window,
// whose webview reaches the handler in-process (Wails' asset server, Host
// "wails"): every request through it is treated as signed in as the local
// owner ([Options.OwnerAccountID]) without a key or cookie, skips the
// DNS-rebinding Host check and the browser guards of the homepage
// converter. Never hand the result to a network listener: anyone who can
// reach it acts as the owner. Requests on the TCP listener reach the
// router directly and never carry the mark.
func TrustLocal(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), trustedKey{}, true)))
	})
}

// isTrusted reports whether the request came through [TrustLocal].
func isTrusted(c echo.Context) bool {
	v, _ := c.Request().Context().Value(trustedKey{}).(bool)
	return v
}

// loopbackHosts are the names a loopback client may use in Host.
func loopbackHosts() []string { return []string{"localhost", "127.0.0.1", "::1"} }

// hostGuard refuses a network request whose Host is not a loopback name
// or one of [Options.AllowedHosts]: 403 forbidden, details.reason "host".
// A web page on a domain the attacker re-points at 127.0.0.1 (DNS
// rebinding) sends its own name in Host, so it cannot read or drive the
// API. Requests through [TrustLocal] skip the check.
func (h *handler) hostGuard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !isTrusted(c) && !h.hosts[hostName(c.Request().Host)] {
			return apperr.New(apperr.Forbidden, "this server answers only to localhost names; the Host header %q is not allowed",
				c.Request().Host).WithDetail("reason", "host")
		}
		return next(c)
	}
}

// hostName returns the lower-case name of a Host header, without port,
// IPv6 brackets or trailing dot.
func hostName(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// allowedHosts returns the set of Host names hostGuard accepts.
func allowedHosts(extra []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range append(loopbackHosts(), extra...) {
		if n = hostName(n); n != "" {
			set[n] = true
		}
	}
	return set
}
