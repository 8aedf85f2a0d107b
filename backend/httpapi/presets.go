package httpapi

import (
	"io"
	"net/http"

	"github.com/labstack/echo/v4"
)

// listPresets serves GET /api/v1/presets: the built-ins, then the
// account's own, each with its resolved rules.
func (h *handler) listPresets(c echo.Context) error {
	list, err := h.presets.List(c.Request().Context(), principalOf(c).Account.ID)
	if err != nil {
		return err
	}
	out := presetList{Presets: make([]PresetView, 0, len(list))}
	for i := range list {
		var problem error
		if list[i].Resolved == nil {
			_, problem = h.presets.Get(c.Request().Context(), principalOf(c).Account.ID, list[i].Name)
		}
		out.Presets = append(out.Presets, NewPresetView(&list[i], problem))
	}
	return c.JSON(http.StatusOK, out)
}

// getPreset serves GET /api/v1/presets/{name}.
func (h *handler) getPreset(c echo.Context) error {
	e, err := h.presets.Get(c.Request().Context(), principalOf(c).Account.ID, c.Param("name"))
	if e == nil {
		return err
	}
	return c.JSON(http.StatusOK, NewPresetView(e, err))
}

// putPreset serves PUT /api/v1/presets/{name}: the body is the preset
// file; 201 when the name is new, 200 when it replaced the account's
// preset of that name.
func (h *handler) putPreset(c echo.Context) error {
	req := c.Request()
	if err := checkJSONContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
		return err
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return asBodyError(err)
	}
	e, created, err := h.presets.Put(req.Context(), principalOf(c).Account.ID, c.Param("name"), body)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, NewPresetView(e, nil))
}

// deletePreset serves DELETE /api/v1/presets/{name}.
func (h *handler) deletePreset(c echo.Context) error {
	name := c.Param("name")
	if err := h.presets.Delete(c.Request().Context(), principalOf(c).Account.ID, name); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, presetDeleted{Name: name, Deleted: true})
}

// presetSchema serves GET /api/v1/preset-v1.schema.json, the JSON Schema
// of a preset file: public, as the contract is.
func (h *handler) presetSchema(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, h.presetSchemaJSON)
}
