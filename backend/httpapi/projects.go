package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// withProjects answers 503 unavailable when no project service is
// configured ([Options.Projects] nil), before the body is read.
func (h *handler) withProjects(next echo.HandlerFunc) echo.HandlerFunc {
	if h.projects != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "projects are not configured on this deployment")
	}
}

// createProject serves POST /api/v1/projects: 201 with the project. The
// body is a multipart form (name, optional file) or JSON (name, optional
// ir).
func (h *handler) createProject(c echo.Context) error {
	in, err := readCreateProject(c)
	if err != nil {
		return err
	}
	p, err := h.projects.Create(c.Request().Context(), principalOf(c).Account.ID, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, NewProjectView(p))
}

// listProjects serves GET /api/v1/projects?limit&cursor.
func (h *handler) listProjects(c echo.Context) error {
	limit, err := queryInt(c, "limit")
	if err != nil {
		return err
	}
	page, err := h.projects.List(c.Request().Context(), principalOf(c).Account.ID, limit, c.QueryParam("cursor"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newProjectList(page))
}

// getProject serves GET /api/v1/projects/{id}: the project and its
// current IR.
func (h *handler) getProject(c echo.Context) error {
	d, err := h.projects.Get(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newProjectDetail(d))
}

// listRevisions serves GET /api/v1/projects/{id}/revisions.
func (h *handler) listRevisions(c echo.Context) error {
	p, revs, err := h.projects.Revisions(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newRevisionList(p, revs))
}

// putIR serves PUT /api/v1/projects/{id}/ir: 200 with the project at its
// new revision, 409 when baseRevision is not current.
func (h *handler) putIR(c echo.Context) error {
	var in putIRRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.IR == nil {
		return missingField("ir")
	}
	if in.BaseRevision == nil {
		return missingField("baseRevision")
	}
	p, err := h.projects.PutIR(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"), *in.IR, *in.BaseRevision)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, NewProjectView(p))
}

// deleteProject serves DELETE /api/v1/projects/{id}.
func (h *handler) deleteProject(c echo.Context) error {
	id := c.Param("id")
	if err := h.projects.Delete(c.Request().Context(), principalOf(c).Account.ID, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, projectDeleted{ID: id, Deleted: true})
}

// diffProject serves POST /api/v1/projects/{id}/diff: the drift between
// the project's current timeline and a candidate; nothing is stored.
func (h *handler) diffProject(c echo.Context) error {
	var in diffRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := h.projects.Diff(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"),
		project.DiffInput{IR: in.IR, AfterIR: in.AfterIR, BaseIRRevision: in.BaseIRRevision})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, driftDiff{Result: res.Result, CurrentIRRevision: res.CurrentIRRevision})
}

// irBodyGuard is the size guard of a route that takes IR: a multipart
// form gets the process limit (the file is sent as it is), a JSON body
// [MaxIRBodyBytes] (the IR is escaped in a string).
func (h *handler) irBodyGuard(next echo.HandlerFunc) echo.HandlerFunc {
	multi, single := h.sizeGuard(h.maxRequest)(next), h.sizeGuard(MaxIRBodyBytes)(next)
	return func(c echo.Context) error {
		if isMultipart(c.Request()) {
			return multi(c)
		}
		return single(c)
	}
}

func isMultipart(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return err == nil && mt == echo.MIMEMultipartForm
}

// readCreateProject binds the body of POST /api/v1/projects.
func readCreateProject(c echo.Context) (project.New, error) {
	if !isMultipart(c.Request()) {
		var in createProjectRequest
		if err := bindJSON(c, &in); err != nil {
			return project.New{}, err
		}
		return project.New{Name: in.Name, IR: in.IR}, nil
	}
	return readProjectForm(c.Request())
}

// readProjectForm streams the multipart form of POST /api/v1/projects:
// name, and an optional file read into memory. Unknown fields are
// skipped; a known field sent twice is refused.
func readProjectForm(r *http.Request) (project.New, error) {
	var in project.New
	mr, err := multipartReader(r)
	if err != nil {
		return in, apperr.New(apperr.BadRequest, "the request must be multipart/form-data or JSON").WithDetail("reason", "content_type")
	}
	seen := map[string]bool{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return in, asBodyError(err)
		}
		if err := readProjectPart(part.FormName(), part, part.FileName(), &in, seen); err != nil {
			return in, err
		}
	}
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		return in, asBodyError(err)
	}
	return in, nil
}

func readProjectPart(field string, part io.ReadCloser, filename string, in *project.New, seen map[string]bool) error {
	defer part.Close()
	switch field {
	case "name", "file":
		if seen[field] {
			return apperr.New(apperr.BadRequest, "the form has the field %s more than once", field).WithDetail("field", field)
		}
		seen[field] = true
	default:
		if _, err := io.Copy(io.Discard, part); err != nil {
			return asBodyError(err)
		}
		return nil
	}
	if field == "file" {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(part); err != nil {
			return asBodyError(err)
		}
		in.File = &project.File{Name: filename, Data: buf.Bytes()}
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return asBodyError(err)
	}
	if len(b) > maxFieldBytes {
		return apperr.New(apperr.BadRequest, "the field name is too long").WithDetail("field", "name").WithDetail("reason", "too_long")
	}
	in.Name = string(b)
	return nil
}

// queryInt reads an optional integer query parameter; absent is 0.
func queryInt(c echo.Context, name string) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, apperr.New(apperr.BadRequest, "%s must be a whole number", name).WithDetail("field", name).WithDetail("reason", "wrong_type")
	}
	return n, nil
}

func missingField(field string) *apperr.Error {
	return apperr.New(apperr.BadRequest, "%s is required", field).WithDetail("field", field).WithDetail("reason", "required")
}
