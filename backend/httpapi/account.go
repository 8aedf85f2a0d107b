package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// me serves GET /api/v1/me: the key's account and its standing today.
func (h *handler) me(c echo.Context) error {
	a := &principalOf(c).Account
	u, err := h.quota.Usage(c.Request().Context(), accountPool(a), a.DailyCap)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newMeResponse(a, u))
}

// usage serves GET /api/v1/usage: today's count, the masked active keys
// and the account's storage.
func (h *handler) usage(c echo.Context) error {
	ctx := c.Request().Context()
	a := &principalOf(c).Account
	u, err := h.quota.Usage(ctx, accountPool(a), a.DailyCap)
	if err != nil {
		return err
	}
	keys, err := h.accounts.ActiveKeys(ctx, a.ID)
	if err != nil {
		return err
	}
	st, err := h.accounts.Storage(ctx, a.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newUsageResponse(u, keys, st))
}
