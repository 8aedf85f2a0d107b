package httpapi

import (
	"bytes"
	"mime"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/report"
)

// projectReport serves GET /api/v1/projects/{id}/report (the OpenAPI
// operation getProjectReport): the QC report of a kept revision, checked
// as an export would check it, counted in no pool and stored nowhere.
func (h *handler) projectReport(c echo.Context) error {
	f := c.QueryParam("format")
	if f == "" {
		f = report.HTML
	}
	if report.ContentType(f) == "" {
		return apperr.New(apperr.BadRequest, "format must be html, pdf or csv").WithDetail("field", "format").WithDetail("reason", "invalid_value")
	}
	if f == report.PDF && h.reportFont == nil {
		return apperr.New(apperr.Unavailable, "PDF reports are not configured on this deployment")
	}
	rev, err := queryInt(c, "revision")
	if err != nil {
		return err
	}
	if _, ok := c.QueryParams()["revision"]; ok && rev < 1 {
		return apperr.New(apperr.BadRequest, "revision must be 1 or more").WithDetail("field", "revision").WithDetail("reason", "out_of_range")
	}
	ctx := c.Request().Context()
	a := &principalOf(c).Account
	got, err := h.exports.CheckRevision(ctx, a.ID, c.Param("id"), project.RevisionCheck{Revision: rev,
		Preset: c.QueryParam("preset"), FixProfile: c.QueryParam("fixProfile"), Standard: c.QueryParam("standard")})
	if err != nil {
		return err
	}
	r := report.Build(report.Input{
		Title: got.Project.Name,
		Facts: []report.Fact{{Label: "Project", Value: got.Project.Name},
			{Label: "Revision", Value: strconv.Itoa(got.Revision) + " of " + strconv.Itoa(got.Project.IRRevision)}},
		Generated: h.now(), Filename: "timeline.json", From: format.JSON, Data: []byte(got.IR),
		Result: got.Result, Media: got.Media,
	})
	var b bytes.Buffer
	switch f {
	case report.HTML:
		err = report.WriteHTML(&b, r)
	case report.CSV:
		err = report.WriteCSV(&b, r)
	default:
		err = report.WritePDF(&b, r, h.reportFont)
	}
	if err != nil {
		return err
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment",
		map[string]string{"filename": report.Filename(project.FileBase(got.Project.Name), got.Revision, f)}))
	w.Header().Set("Cache-Control", "private, no-store")
	// The page is the caller's own report, yet it quotes caption text: a
	// browser must not guess another type, and nothing in it runs.
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	return c.Blob(http.StatusOK, report.ContentType(f), b.Bytes())
}
