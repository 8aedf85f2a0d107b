package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
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
	expires, err := in.expires()
	if err != nil {
		return err
	}
	k, secret, err := h.accounts.CreateKey(c.Request().Context(), p.Account.ID,
		account.NewKey{Name: in.Name, Scopes: in.Scopes, ExpiresAt: expires})
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
		// A value of the wrong type names its field, in the caller's
		// words rather than Go's.
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return apperr.New(apperr.BadRequest, "%s: expected %s, got a JSON %s", typeErr.Field, jsonKind(typeErr.Type.Kind()), typeErr.Value).
				WithDetail("field", typeErr.Field).Wrap(err)
		}
		return apperr.New(apperr.BadRequest, "the body is not valid JSON: %v", err).Wrap(err)
	}
	return nil
}

// jsonKind names what a Go kind is in JSON.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return "a number"
}
