package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/engine"
)

// explain serves POST /api/v1/explain: ExplainAI v3 for a process report,
// counted in the account's daily runs and explanations.
func (h *handler) explain(c echo.Context) error {
	var req explainRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	in := req.input()
	p := principalOf(c)
	if in.Report != nil {
		// A report of one of the account's own presets.
		r := engine.Request{Preset: in.Report.Preset}
		if err := h.presets.Resolve(c.Request().Context(), p.Account.ID, &r); err != nil {
			return err
		}
		in.Preset = r.Resolved
	}
	e, remaining, err := h.explainer.Explain(c.Request().Context(), &p.Account, &in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, explainResponse{Explanation: e, RemainingAPIRunsToday: remaining})
}
