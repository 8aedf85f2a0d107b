package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/quota"
)

const ctxPrincipal = "captionqa.principal"

// authenticate resolves who a v1 request acts for (docs/api.md,
// Authentication), in this
// order:
//  1. the desktop window (a request through [TrustLocal]): the owner, with
//     every scope;
//  2. an Authorization header: the Bearer key, as integrations send it;
//  3. the dashboard session cookie ([SessionCookie]), with every scope of
//     its account; a mutating method must carry the session's CSRF token
//     in [CSRFHeader] (403 forbidden, details.reason "csrf").
//
// Failures: 401 unauthorized when nothing valid is sent, api_key_revoked
// or api_key_expired for keys, and 403 forbidden (missingFeature API_V1)
// when the account's v1 API is disabled.
func (h *handler) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, err := h.principal(c)
		if err != nil {
			return err
		}
		if p.Account.APIDisabled || !p.Account.Has(account.FeatureAPIV1) {
			return apperr.New(apperr.Forbidden, "the v1 API is disabled for this account").
				WithDetail("missingFeature", account.FeatureAPIV1)
		}
		c.Set(ctxPrincipal, p)
		return next(c)
	}
}

func (h *handler) principal(c echo.Context) (*account.Principal, error) {
	if isTrusted(c) {
		return h.ownerPrincipal(c)
	}
	header := c.Request().Header.Get(echo.HeaderAuthorization)
	if header == "" {
		if cookie, err := c.Cookie(SessionCookie); err == nil {
			return h.sessionPrincipal(c, cookie.Value)
		}
	}
	secret, ok := bearer(header)
	if !ok {
		return nil, apperr.New(apperr.Unauthorized, "missing Bearer token: send Authorization: Bearer <API_KEY>")
	}
	return h.accounts.Authenticate(c.Request().Context(), secret)
}

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

func principalOf(c echo.Context) *account.Principal {
	p, _ := c.Get(ctxPrincipal).(*account.Principal)
	return p
}

// requireAccess checks the route's scope and entitlements (docs/api.md,
// Scopes and entitlements):
// 403 forbidden with details.missingScope or details.missingFeature.
func requireAccess(a access) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p := principalOf(c)
			if a.scope != "" && p.Key != nil && !p.Key.HasScope(a.scope) {
				return apperr.New(apperr.Forbidden, "the API key lacks the scope %s", a.scope).
					WithDetail("missingScope", a.scope)
			}
			if ok, f := a.allows(&p.Account); !ok {
				if len(a.anyOf) > 0 {
					return missingFeature(f).WithDetail("anyOf", a.anyOf)
				}
				return missingFeature(f)
			}
			return next(c)
		}
	}
}

// grantable returns nil when acct may use every scope of scopes on some
// v1 route, else 403 forbidden naming the scope (details.scope) and the
// feature it lacks (details.missingFeature): a key with a scope its
// account cannot use would fail every call that scope allows
// (docs/api.md, API keys).
func (h *handler) grantable(acct *account.Account, scopes []string) error {
	for _, sc := range scopes {
		missing := ""
		for _, a := range h.scopeRoutes[sc] {
			ok, f := a.allows(acct)
			if ok {
				missing = ""
				break
			}
			if missing == "" {
				missing = f
			}
		}
		if missing != "" {
			return missingFeature(missing).WithDetail("scope", sc)
		}
	}
	return nil
}

func missingFeature(f string) *apperr.Error {
	return apperr.New(apperr.Forbidden, "the account lacks the entitlement %s", f).WithDetail("missingFeature", f)
}

func hasAny(a *account.Account, features []string) bool {
	for _, f := range features {
		if a.Has(f) {
			return true
		}
	}
	return false
}

// rateLimit admits the request ([quota.Service.AdmitKey]): it applies
// the burst limits, the caller's own bucket (the key's, or for a
// dashboard session or the desktop window the account's UI bucket) and
// the bucket all callers of the account share, so that many keys of one
// account do not multiply its burst, and reads the day's counts of the
// account's pools, with which the handler's first check of each is
// answered (one round trip for both on a cluster's store). A refusal is
// 429 rate_limited with Retry-After (set by the error handler from
// details.retryAfterSeconds), and details.bucket "account" when the
// shared bucket is the empty one.
func (h *handler) rateLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := principalOf(c)
		key := "account:" + p.Account.ID
		if p.Key != nil {
			key = "key:" + p.Key.ID
		}
		ctx, err := h.quota.AdmitKey(c.Request().Context(), p.Account.ID, key,
			quota.AccountPool(p.Account.ID), quota.ExplainPool(p.Account.ID))
		if err != nil {
			return err
		}
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

// accountPool is the quota pool of an account's successful runs.
func accountPool(a *account.Account) string { return quota.AccountPool(a.ID) }
