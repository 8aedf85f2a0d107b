package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// withTemplates answers 503 unavailable when the template runtime is
// off ([Options.Templates] nil), before the body is read.
func (h *handler) withTemplates(next echo.HandlerFunc) echo.HandlerFunc {
	if h.templates != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "the export template runtime is off on this server").
			WithDetail("reason", "templates_off")
	}
}

// listTemplates serves GET /api/v1/export-templates.
func (h *handler) listTemplates(c echo.Context) error {
	list, err := h.templates.List(c.Request().Context(), principalOf(c).Account.ID)
	if err != nil {
		return err
	}
	out := templateList{Templates: make([]TemplateView, 0, len(list))}
	for i := range list {
		out.Templates = append(out.Templates, newTemplateView(&list[i], false))
	}
	return c.JSON(http.StatusOK, out)
}

// createTemplate serves POST /api/v1/export-templates: 201 once the
// script is validated and saved.
func (h *handler) createTemplate(c echo.Context) error {
	var in templateDraft
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	t, err := h.templates.Create(c.Request().Context(), principalOf(c).Account.ID, exporttpl.Draft{
		Name: in.Name, Source: in.ScriptSource, FilenamePattern: in.FilenamePattern, ContentType: in.ContentType})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, newTemplateView(t, true))
}

// getTemplate serves GET /api/v1/export-templates/{id}.
func (h *handler) getTemplate(c echo.Context) error {
	t, err := h.templates.Get(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newTemplateView(t, true))
}

// updateTemplate serves PUT /api/v1/export-templates/{id}.
func (h *handler) updateTemplate(c echo.Context) error {
	var in templateChange
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	t, err := h.templates.Update(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"), exporttpl.Change{
		Name: in.Name, Source: in.ScriptSource, FilenamePattern: in.FilenamePattern, ContentType: in.ContentType,
		Revision: in.Revision})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newTemplateView(t, true))
}

// deleteTemplate serves DELETE /api/v1/export-templates/{id}.
func (h *handler) deleteTemplate(c echo.Context) error {
	id := c.Param("id")
	if err := h.templates.Delete(c.Request().Context(), principalOf(c).Account.ID, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, templateDeleted{ID: id, Deleted: true})
}

// validateTemplate serves POST /api/v1/export-templates/validate. A test
// takes none of the engine's slots: its VM is bounded by the template
// runtime's own and the account's fair share (docs/templates.md, Fair
// share). Held while waiting for the account's VM, an engine slot would
// let one account's queued loops hold every slot, and everyone's runs
// would queue behind them.
func (h *handler) validateTemplate(c echo.Context) error {
	var in templateCheck
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := h.templates.Validate(c.Request().Context(), exportAccount(c),
		exporttpl.Check{Source: in.ScriptSource, Mode: in.Mode, ProjectID: in.ProjectID})
	return runAnswer(c, res, err)
}

// testTemplate serves POST /api/v1/export-templates/{id}/test.
func (h *handler) testTemplate(c echo.Context) error {
	var in templateCheck
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := h.templates.Test(c.Request().Context(), exportAccount(c), c.Param("id"),
		exporttpl.Check{Mode: in.Mode, ProjectID: in.ProjectID})
	return runAnswer(c, res, err)
}

// runAnswer answers a validate or test call.
func runAnswer(c echo.Context, res *exporttpl.RunResult, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newTemplateRunResult(res))
}
