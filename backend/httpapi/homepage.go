package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/explain/grant"
)

// browserOnlyMessage is the refusal every non-browser caller of the
// homepage converter gets.
const browserOnlyMessage = "the homepage converter is for the browser UI; integrations use /api/v1 with an API key"

// csrfToken serves GET /api/csrf: {"token"} and the matching cookie.
func (h *handler) csrfToken(c echo.Context) error {
	tok := h.csrf.mint()
	c.SetCookie(&http.Cookie{Name: CSRFCookie, Value: tok, Path: "/api", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: c.IsTLS()})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, csrfResponse{Token: tok})
}

// browserOnly lets through same-origin browser requests carrying the CSRF
// token: Origin equal to the server's own (or, without Origin,
// Sec-Fetch-Site: same-origin) and the double-submitted token. The
// desktop window (a request through [TrustLocal], origin wails://wails)
// passes as it is.
func (h *handler) browserOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if isTrusted(c) {
			return next(c)
		}
		r := c.Request()
		sameOrigin := r.Header.Get("Sec-Fetch-Site") == "same-origin"
		if origin := r.Header.Get(echo.HeaderOrigin); origin != "" {
			sameOrigin = origin == c.Scheme()+"://"+r.Host
		}
		if !sameOrigin {
			return refuseNonBrowser("origin")
		}
		cookie, err := r.Cookie(CSRFCookie)
		if err != nil || !h.csrf.check(r.Header.Get(CSRFHeader), cookie.Value) {
			return refuseNonBrowser("csrf")
		}
		return next(c)
	}
}

func refuseNonBrowser(reason string) *apperr.Error {
	return apperr.New(apperr.Forbidden, browserOnlyMessage).WithDetail("reason", reason)
}

// homepageProcess serves POST /api/process: the quick converter of the
// local UI (docs/api.md, The homepage converter). An anonymous client
// runs in its own daily pool; a signed-in account (a dashboard session,
// or the desktop window's owner) runs uncounted on the Pro tier, and
// otherwise in its account's pool, which the homepage tool shares with
// v1.
func (h *handler) homepageProcess(c echo.Context) error {
	a, err := h.homepageAccount(c)
	if err != nil {
		return err
	}
	if a != nil && a.Tier == account.TierPro {
		res, in, err := h.run(c.Request(), runFor{presets: a.ID})
		if err != nil {
			return err
		}
		x, err := h.explainer.ForProcess(c.Request().Context(), a, res, in.includeExplain)
		if err != nil {
			return err
		}
		return writeProcessResponse(c, newProcessResponse(res, x))
	}
	pool, cap := anonPool(h.anonSalt, c.RealIP()), h.anonCap
	var who runFor
	if a != nil {
		pool, cap = accountPool(a), a.DailyCap
		who.presets = a.ID
	}
	res, remaining, in, err := h.countedRun(c.Request(), who, pool, cap)
	if err != nil {
		return err
	}
	x := grant.Anonymous(in.includeExplain)
	if a != nil {
		if x, err = h.explainer.ForProcess(c.Request().Context(), a, res, in.includeExplain); err != nil {
			return err
		}
	}
	out := newProcessResponse(res, x)
	out.RemainingToday = &remaining
	return writeProcessResponse(c, out)
}

// homepageAccount returns the signed-in account of a homepage request:
// the desktop window's owner, or a dashboard session's account. It is nil
// for anyone else, including a session no longer valid (unknown, revoked
// or expired), which then runs as an anonymous client; a failure to look
// the account up is returned, not taken for anonymity. browserOnly has
// already checked the request's origin and CSRF token.
func (h *handler) homepageAccount(c echo.Context) (*account.Account, error) {
	if isTrusted(c) {
		p, err := h.ownerPrincipal(c)
		if err != nil {
			return nil, err
		}
		return &p.Account, nil
	}
	cookie, err := c.Cookie(SessionCookie)
	if err != nil {
		return nil, nil
	}
	p, _, err := h.accounts.SessionPrincipal(c.Request().Context(), cookie.Value)
	switch {
	case apperr.KindOf(err) == apperr.Unauthorized:
		return nil, nil
	case err != nil:
		return nil, err
	}
	return &p.Account, nil
}

// anonPool names an anonymous client's pool by a keyed hash of its
// address, so the store never holds the address itself, and without the
// per-install salt the 2^32 IPv4 addresses cannot be hashed to find it.
func anonPool(salt []byte, ip string) string {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(ip))
	return "anon:" + hex.EncodeToString(m.Sum(nil)[:12])
}

type csrfResponse struct {
	Token string `json:"token"`
}
