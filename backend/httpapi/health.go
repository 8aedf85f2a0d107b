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

// home is the plain page of a build without the UI.
func (h *handler) home(c echo.Context) error {
	return c.HTML(http.StatusOK, homePage)
}

const homePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CaptionQA</title></head>
<body><h1>CaptionQA</h1>
<p>The caption QA service is running. The v1 API lives under <code>/api/v1</code>;
its contract is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<p>The UI is not built into this binary.</p></body></html>
`
