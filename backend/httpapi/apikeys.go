package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
)

// listKeys serves GET /api/v1/api-keys?limit&cursor: a page of the
// account's keys, masked, newest first, with the scopes the caller may
// grant a new key.
func (h *handler) listKeys(c echo.Context) error {
	limit := account.DefaultKeyListLimit
	if c.QueryParam("limit") != "" {
		n, err := queryInt(c, "limit")
		if err != nil {
			return err
		}
		limit = n
	}
	p := principalOf(c)
	page, err := h.accounts.ListKeys(c.Request().Context(), p.Account.ID, limit, c.QueryParam("cursor"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newKeyList(page, h.grantableScopes(p), h.now()))
}

// grantableScopes are the scopes createKey would let p give a new key,
// in the order of [account.Scopes]: those its account may use on some
// route and, for a key, those the key carries itself.
func (h *handler) grantableScopes(p *account.Principal) []string {
	out := []string{}
	for _, sc := range account.Scopes() {
		if p.Key != nil && !p.Key.HasScope(sc) {
			continue
		}
		if h.grantable(&p.Account, []string{sc}) == nil {
			out = append(out, sc)
		}
	}
	return out
}

// createKey serves POST /api/v1/api-keys: 201 with the one-time secret.
// When a key asks, it is the new key's parent: the service refuses a
// scope it lacks and an expiry after its own.
func (h *handler) createKey(c echo.Context) error {
	var in createKeyRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	expires, err := in.expires()
	if err != nil {
		return err
	}
	p := principalOf(c)
	if err := h.grantable(&p.Account, in.Scopes); err != nil {
		return err
	}
	k, secret, err := h.accounts.CreateKey(c.Request().Context(), p.Account.ID,
		account.NewKey{Name: in.Name, Scopes: in.Scopes, ExpiresAt: expires, Parent: p.Key})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, NewKeyCreated(k, secret, h.now()))
}

// revokeKey serves DELETE /api/v1/api-keys/{keyId}: 200, or 404 when the
// key is unknown or another account's.
func (h *handler) revokeKey(c echo.Context) error {
	ctx, id := c.Request().Context(), c.Param("keyId")
	accountID := principalOf(c).Account.ID
	k, err := h.accounts.RevokeKey(ctx, accountID, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, NewRevocation(k))
}
