package httpapi

import (
	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// explain serves POST /api/v1/explain. No ExplainAI provider ships in this
// release, so an entitled caller gets 503 unavailable (contract).
func (h *handler) explain(c echo.Context) error {
	return apperr.New(apperr.Unavailable, "no ExplainAI provider is configured on this deployment")
}
