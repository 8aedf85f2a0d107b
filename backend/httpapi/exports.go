package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// withExports answers 503 unavailable when exports are not configured
// ([Options.Exports] or [Options.Links] nil), before the body is read.
func (h *handler) withExports(next echo.HandlerFunc) echo.HandlerFunc {
	if h.exports != nil && h.links != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "exports are not configured on this deployment")
	}
}

// exportAccount is the caller's account as exports and template tests
// count it: its daily pool, and whether its exports go to its webhook.
func exportAccount(c echo.Context) project.Account {
	a := &principalOf(c).Account
	return project.Account{ID: a.ID, Pool: accountPool(a), Cap: a.DailyCap, Notify: a.Has(account.FeatureProWorkspace)}
}

// createExport serves POST /api/v1/projects/{id}/exports: 201 with the
// export, its receipt and its artifacts. Its preset runs hold one of the
// engine's slots, as a process request does; its templates run in the
// template runtime's VMs, whose fair share is the runtime's.
func (h *handler) createExport(c echo.Context) error {
	var in exportRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	e, err := h.exports.Export(c.Request().Context(), exportAccount(c), c.Param("id"), project.ExportInput{Presets: in.Presets,
		TemplateIDs: in.TemplateIDs, FixProfile: in.FixProfile, Standard: in.Standard})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, NewExportCreated(e))
}
