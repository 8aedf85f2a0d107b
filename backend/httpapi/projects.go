package httpapi

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/explain/grant"
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
// The timeline comes as JSON {ir, baseRevision} or as a multipart form
// with a caption file and baseRevision.
func (h *handler) putIR(c echo.Context) error {
	if isMultipart(c.Request()) {
		return h.putFile(c)
	}
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

// putFile serves PUT /api/v1/projects/{id}/ir with a caption file.
func (h *handler) putFile(c echo.Context) error {
	form, err := readProjectForm(c.Request(), "file", "baseRevision")
	if err != nil {
		return err
	}
	if form.file == nil {
		return missingField("file")
	}
	v, ok := form.fields["baseRevision"]
	if !ok {
		return missingField("baseRevision")
	}
	base, err := strconv.Atoi(v)
	if err != nil {
		return apperr.New(apperr.BadRequest, "baseRevision must be a whole number").WithDetail("field", "baseRevision")
	}
	p, err := h.projects.PutFile(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"), form.file, base)
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
// The candidate comes as JSON (ir or afterIr) or, so that an editor can
// drop a caption file as it is, as a multipart form with a file.
func (h *handler) diffProject(c echo.Context) error {
	in, err := readDiffRequest(c)
	if err != nil {
		return err
	}
	res, err := h.projects.Diff(c.Request().Context(), principalOf(c).Account.ID, c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, driftDiff{Result: res.Result, CurrentIRRevision: res.CurrentIRRevision})
}

// readDiffRequest binds the body of POST /api/v1/projects/{id}/diff: JSON
// {ir|afterIr, baseIrRevision}, or a form with a file and baseIrRevision.
func readDiffRequest(c echo.Context) (project.DiffInput, error) {
	if !isMultipart(c.Request()) {
		var in diffRequest
		if err := bindJSON(c, &in); err != nil {
			return project.DiffInput{}, err
		}
		return project.DiffInput{IR: in.IR, AfterIR: in.AfterIR, BaseIRRevision: in.BaseIRRevision}, nil
	}
	form, err := readProjectForm(c.Request(), "file", "baseIrRevision")
	if err != nil {
		return project.DiffInput{}, err
	}
	in := project.DiffInput{File: form.file}
	if v, ok := form.fields["baseIrRevision"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return in, apperr.New(apperr.BadRequest, "baseIrRevision must be a whole number").WithDetail("field", "baseIrRevision")
		}
		in.BaseIRRevision = &n
	}
	if in.File == nil {
		return in, apperr.New(apperr.BadRequest, "the form has no file").WithDetail("field", "file").WithDetail("reason", "required")
	}
	return in, nil
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
	form, err := readProjectForm(c.Request(), "file", "name")
	if err != nil {
		return project.New{}, err
	}
	return project.New{Name: form.fields["name"], File: form.file}, nil
}

// projectForm is a bound multipart form of the project routes.
type projectForm struct {
	file   *project.File
	fields map[string]string
}

// readProjectForm streams a multipart form with the named fields ("file"
// read into memory, the others short text). Unknown fields are skipped;
// a known field sent twice is refused.
func readProjectForm(r *http.Request, known ...string) (projectForm, error) {
	form := projectForm{fields: map[string]string{}}
	mr, err := multipartReader(r)
	if err != nil {
		return form, apperr.New(apperr.BadRequest, "the request must be multipart/form-data or JSON").WithDetail("reason", "content_type")
	}
	seen := map[string]bool{}
	err = eachPart(r, mr, func(p *multipart.Part) error { return form.readPart(p, known, seen) })
	return form, err
}

func (form *projectForm) readPart(part *multipart.Part, known []string, seen map[string]bool) error {
	defer part.Close()
	field := part.FormName()
	if !slices.Contains(known, field) {
		if _, err := io.Copy(io.Discard, part); err != nil {
			return asBodyError(err)
		}
		return nil
	}
	if seen[field] {
		return apperr.New(apperr.BadRequest, "the form has the field %s more than once", field).WithDetail("field", field)
	}
	seen[field] = true
	if field == "file" {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(part); err != nil {
			return asBodyError(err)
		}
		form.file = &project.File{Name: part.FileName(), Data: buf.Bytes()}
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return asBodyError(err)
	}
	if len(b) > maxFieldBytes {
		return apperr.New(apperr.BadRequest, "the field %s is too long", field).WithDetail("field", field).WithDetail("reason", "too_long")
	}
	form.fields[field] = string(b)
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

// checkRequest is the body of POST /api/v1/projects/{id}/check (the
// OpenAPI operation checkProjectDraft).
type checkRequest struct {
	IR       *string `json:"ir"`
	Preset   string  `json:"preset"`
	Standard string  `json:"standard"`
}

// checkDraft serves POST /api/v1/projects/{id}/check: the process result
// of an editor's draft, against the project's analysed media, counted in
// no pool and stored nowhere.
func (h *handler) checkDraft(c echo.Context) error {
	var in checkRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.IR == nil {
		return missingField("ir")
	}
	ctx := c.Request().Context()
	a := &principalOf(c).Account
	res, err := h.exports.CheckDraft(ctx, a.ID, c.Param("id"), project.DraftCheck{IR: *in.IR, Preset: in.Preset, Standard: in.Standard})
	if err != nil {
		return err
	}
	u, err := h.quota.Usage(ctx, accountPool(a), a.DailyCap)
	if err != nil {
		return err
	}
	// A check asks for no explanation (explainAvailable false) and spends
	// no run: remainingApiRunsToday is what the pool still holds.
	out := newProcessResponse(res, grant.Outcome{})
	out.RemainingAPIRunsToday = &u.Remaining
	return writeProcessResponse(c, out)
}
