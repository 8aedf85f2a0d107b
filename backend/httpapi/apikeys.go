package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// listKeys serves GET /api/v1/api-keys: the account's keys, masked.
func (h *handler) listKeys(c echo.Context) error {
	keys, err := h.accounts.ListKeys(c.Request().Context(), principalOf(c).Account.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newKeyList(keys, h.now()))
}

// createKey serves POST /api/v1/api-keys: 201 with the one-time secret.
// A key cannot mint a key with a scope it lacks itself: keys:write alone
// must not be a way to every scope.
func (h *handler) createKey(c echo.Context) error {
	var in createKeyRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	p := principalOf(c)
	if p.Key != nil {
		for _, s := range in.Scopes {
			// Unknown scopes are the service's 400 to report.
			if slices.Contains(account.Scopes(), s) && !p.Key.HasScope(s) {
				return apperr.New(apperr.Forbidden, "a key cannot grant the scope %s, which it lacks", s).
					WithDetail("missingScope", s)
			}
		}
	}
	k, secret, err := h.accounts.CreateKey(c.Request().Context(), p.Account.ID,
		account.NewKey{Name: in.Name, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt})
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

// bindJSON decodes a JSON body; unknown fields are ignored (spec 9 rule 3).
func bindJSON(c echo.Context, dst any) error {
	if err := json.NewDecoder(c.Request().Body).Decode(dst); err != nil {
		if e := asBodyError(err); apperr.KindOf(e) == apperr.RequestTooLarge {
			return e
		}
		return apperr.New(apperr.BadRequest, "the body is not valid JSON: %v", err).Wrap(err)
	}
	return nil
}
