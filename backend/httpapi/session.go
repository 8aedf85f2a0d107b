package httpapi

import (
	"crypto/subtle"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// Dashboard sessions (docs/api.md, Browser sessions): the browser UI
// signs in with POST /api/session and then calls /api/v1 with the cookie
// instead of a key. Every mutating request of a cookie session (any
// method but GET, HEAD and OPTIONS) must carry the session's CSRF token
// in [CSRFHeader].
const (
	// SessionCookie holds the session token: HttpOnly, SameSite=Strict,
	// Path=/, Secure when the request came over TLS.
	SessionCookie = "captionqa_session"
)

// login serves POST /api/session {email, password}: 200 with the
// session's email, tier and CSRF token, and the session cookie. Failed
// attempts slow down further ones on the same account from the same
// address (429 rate_limited, see [account.Service.SignIn]); a failure is
// 401 unauthorized with one message whatever was wrong.
func (h *handler) login(c echo.Context) error {
	var in loginRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	sess, token, err := h.accounts.SignIn(c.Request().Context(), in.Email, in.Password, c.RealIP())
	if err != nil {
		return err
	}
	return h.startSession(c, sess, token)
}

// signInLink serves POST /api/session/link {token, password}: it uses a
// one-time sign-in link (see [account.Service.UseSignInLink]), setting
// the account's password, and answers as [handler.login] does. A link
// that is unknown, used or expired is 401 unauthorized with one message
// that says how to get a new one; a password the account may not have is
// 400 bad_request (details.field "password") and leaves the link usable.
// Dead links tried from one address slow down further tries from it
// (429 rate_limited, see [account.Service.SignInWithLink]).
func (h *handler) signInLink(c echo.Context) error {
	var in linkRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	sess, token, err := h.accounts.SignInWithLink(c.Request().Context(), in.Token, in.Password, c.RealIP())
	if err != nil {
		return err
	}
	return h.startSession(c, sess, token)
}

// startSession answers a sign-in: the session cookie, and 200 with the
// session's email, tier and CSRF token.
func (h *handler) startSession(c echo.Context, sess *account.Session, token string) error {
	p, csrf, err := h.accounts.SessionPrincipal(c.Request().Context(), token)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: c.IsTLS(),
		Expires: sess.ExpiresAt, MaxAge: int(sess.ExpiresAt.Sub(h.now()).Seconds())})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, h.newSessionResponse(p, csrf, false))
}

// session serves GET /api/session: who the UI is signed in as. The
// desktop window is always signed in as the owner (desktop true, no CSRF
// token needed); otherwise the cookie's session, or 401 unauthorized. A
// signed-out client on this machine (a loopback address) is also told
// the owner account's email in details.ownerEmail, so the sign-in page
// can say whose password to use; no other client ever is.
func (h *handler) session(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if isTrusted(c) {
		p, err := h.ownerPrincipal(c)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, h.newSessionResponse(p, "", true))
	}
	cookie, err := c.Cookie(SessionCookie)
	if err != nil {
		return h.signedOut(c, apperr.New(apperr.Unauthorized, "not signed in"))
	}
	p, csrf, err := h.accounts.SessionPrincipal(c.Request().Context(), cookie.Value)
	if err != nil {
		return h.signedOut(c, err)
	}
	return c.JSON(http.StatusOK, h.newSessionResponse(p, csrf, false))
}

// signedOut returns err, an answer to a client without a session; a 401
// to a loopback client gains details.ownerEmail when the owner is known.
func (h *handler) signedOut(c echo.Context, err error) error {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Unauthorized || h.ownerID == "" || !isLoopbackClient(c) {
		return err
	}
	owner, lookupErr := h.accounts.Account(c.Request().Context(), h.ownerID)
	if lookupErr != nil {
		return err
	}
	return apperr.New(apperr.Unauthorized, "%s", e.Message).WithDetail("ownerEmail", owner.Email).Wrap(err)
}

// isLoopbackClient reports whether the request's peer is a loopback
// address: a process on this machine. The router takes the peer address
// as is ([echo.ExtractIPDirect]), so no header can claim it.
func isLoopbackClient(c echo.Context) bool {
	ip := net.ParseIP(c.RealIP())
	return ip != nil && ip.IsLoopback()
}

// logout serves DELETE /api/session: 204, the session revoked and the
// cookie cleared. A live session must be named by its CSRF token (403
// forbidden, details.reason "csrf"); without a live session there is
// nothing to revoke and the answer is 204 all the same.
func (h *handler) logout(c echo.Context) error {
	ctx := c.Request().Context()
	if cookie, err := c.Cookie(SessionCookie); err == nil && !isTrusted(c) {
		if _, csrf, err := h.accounts.SessionPrincipal(ctx, cookie.Value); err == nil {
			if !csrfMatches(c, csrf) {
				return csrfRefused()
			}
			if err := h.accounts.Logout(ctx, cookie.Value); err != nil {
				return err
			}
		}
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: c.IsTLS(), MaxAge: -1, Expires: time.Unix(0, 0)})
	return c.NoContent(http.StatusNoContent)
}

// sameOriginOnly refuses a browser request from another origin: with an
// Origin header, it must be this server's. Clients that send no Origin
// (scripts, curl) pass; the desktop window passes.
func sameOriginOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if origin := r.Header.Get(echo.HeaderOrigin); origin != "" && !isTrusted(c) && origin != c.Scheme()+"://"+r.Host {
			return apperr.New(apperr.Forbidden, "cross-origin requests cannot sign in or out").WithDetail("reason", "origin")
		}
		return next(c)
	}
}

// sessionPrincipal authenticates a request by its session cookie and, for
// a mutating method, its CSRF header.
func (h *handler) sessionPrincipal(c echo.Context, token string) (*account.Principal, error) {
	p, csrf, err := h.accounts.SessionPrincipal(c.Request().Context(), token)
	if err != nil {
		return nil, err
	}
	switch c.Request().Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		if !csrfMatches(c, csrf) {
			return nil, csrfRefused()
		}
	}
	return p, nil
}

// ownerPrincipal is the desktop window's principal: the owner account,
// read afresh so entitlement changes apply at once, with every scope.
func (h *handler) ownerPrincipal(c echo.Context) (*account.Principal, error) {
	if h.ownerID == "" {
		return nil, apperr.New(apperr.Unauthorized, "no local owner is configured")
	}
	a, err := h.accounts.Account(c.Request().Context(), h.ownerID)
	if err != nil {
		return nil, err
	}
	return &account.Principal{Account: *a}, nil
}

func csrfMatches(c echo.Context, csrf string) bool {
	got := c.Request().Header.Get(CSRFHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(csrf)) == 1
}

func csrfRefused() *apperr.Error {
	return apperr.New(apperr.Forbidden, "a signed-in browser request that changes something must carry the header %s with the session's CSRF token", CSRFHeader).
		WithDetail("reason", "csrf")
}
