package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

type statusResponse struct {
	Status string `json:"status"`
}

// healthz answers while the process serves.
func (h *handler) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, statusResponse{Status: "ok"})
}

// readyz answers 200 when the store answers a ping, 503 unavailable
// otherwise.
func (h *handler) readyz(c echo.Context) error {
	if h.ready != nil {
		if err := h.ready(c.Request().Context()); err != nil {
			h.log.Warn("readiness check failed", "error", err.Error())
			// A store that says why (busy, with a retry hint) is passed on.
			if e, ok := apperr.As(err); ok && e.Kind == apperr.Unavailable {
				return e
			}
			return apperr.New(apperr.Unavailable, "the database does not answer").Wrap(err)
		}
	}
	return c.JSON(http.StatusOK, statusResponse{Status: "ready"})
}

// openAPI serves the v1 contract as JSON, without authentication.
func (h *handler) openAPI(c echo.Context) error {
	if h.openapi == nil {
		return apperr.New(apperr.Unavailable, "the API contract is not bundled in this build")
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, h.openapi)
}
