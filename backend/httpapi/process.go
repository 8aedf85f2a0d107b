package httpapi

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
)

// process serves POST /api/v1/process: one counted run of the engine for
// the key's account.
func (h *handler) process(c echo.Context) error {
	p := principalOf(c)
	res, remaining, in, err := h.countedRun(c.Request(), runFor{media: p.Account.ID, presets: p.Account.ID}, accountPool(&p.Account), p.Account.DailyCap)
	if err != nil {
		return err
	}
	x, err := h.explainer.ForProcess(c.Request().Context(), &p.Account, res, in.includeExplain)
	if err != nil {
		return err
	}
	out := newProcessResponse(res, x)
	out.RemainingAPIRunsToday = &remaining
	return writeProcessResponse(c, out)
}

// countedRun reads the form, runs the engine (with the analysis of the
// account's media the form names and a preset of the account's own, as
// who says) and, once it has succeeded,
// counts the run in pool (docs/api.md, Limits and quotas). A pool already
// full is refused before the upload is read; one that fills while the run
// is under way refuses it at the end, so the count stays exact. Nothing
// is held in between: a run that fails, hangs or dies with the server
// keeps no other run out and costs nothing.
func (h *handler) countedRun(r *http.Request, who runFor, pool string, cap int) (*engine.Result, int, processForm, error) {
	ctx := r.Context()
	if err := h.quota.Check(ctx, pool, cap); err != nil {
		return nil, 0, processForm{}, err
	}
	res, in, err := h.run(r, who)
	if err == nil {
		// A client that hung up gets no result, so it spends no run.
		err = ctx.Err()
	}
	if err != nil {
		return nil, 0, in, err
	}
	remaining, err := h.quota.Take(ctx, pool, cap)
	if err != nil {
		return nil, 0, in, err
	}
	return res, remaining, in, nil
}

// runFor names the accounts a run is for: media, whose analysed media
// the form may name, and presets, whose own presets the form's preset may
// name ("" for none: the built-ins only).
type runFor struct{ media, presets string }

// run reads the process form and runs the engine on it (against the
// analysis of who.media's media the form names, with a preset of
// who.presets' own or a built-in), once one of the
// engine's slots is free: runs beyond [Options.MaxEngineRuns] wait their
// turn (each holding an upload slot, so the queue is bounded) rather than
// share the CPUs and all finish late.
func (h *handler) run(r *http.Request, who runFor) (*engine.Result, processForm, error) {
	in, err := readProcessForm(r)
	if err != nil {
		return nil, in, err
	}
	ctx := r.Context()
	if err := h.presets.Resolve(ctx, who.presets, &in.req); err != nil {
		return nil, in, err
	}
	if err := h.attachMedia(ctx, who.media, &in); err != nil {
		return nil, in, err
	}
	if err := h.engineRuns.Take(ctx); err != nil {
		return nil, in, err
	}
	defer h.engineRuns.Give()
	start := time.Now()
	res, err := h.engine.Process(ctx, in.req)
	h.metrics.ObserveEngineRun(time.Since(start), err == nil)
	return res, in, err
}

// processForm is the bound multipart form of a process request.
type processForm struct {
	req            engine.Request
	includeExplain bool
	// projectID and mediaKey name the analysed media to check against.
	projectID, mediaKey string
}

// maxFieldBytes bounds a text field of the process form.
const maxFieldBytes = 1 << 10

// readProcessForm streams the multipart form (the OpenAPI operation
// processCaptions): the file part
// is read into memory once, never spooled to disk; unknown fields are
// skipped; a known field sent twice is refused. The body is already
// bounded by the size guard.
func readProcessForm(r *http.Request) (processForm, error) {
	var f processForm
	mr, err := multipartReader(r)
	if err != nil {
		return f, apperr.New(apperr.BadRequest, "the request must be multipart/form-data with a file field").
			WithDetail("field", "file")
	}
	seen := map[string]bool{}
	if err := eachPart(r, mr, func(p *multipart.Part) error { return f.readPart(p, seen) }); err != nil {
		return f, err
	}
	if !seen["file"] {
		return f, apperr.New(apperr.BadRequest, "the form has no file").WithDetail("field", "file")
	}
	return f, nil
}

// eachPart hands every part of r's form to read, then reads what follows
// the closing boundary, so the body's end lifts its deadline.
func eachPart(r *http.Request, mr *multipart.Reader, read func(*multipart.Part) error) error {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return asBodyError(err)
		}
		if err := read(part); err != nil {
			return err
		}
	}
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		return asBodyError(err)
	}
	return nil
}

// multipartReader reads r's multipart/form-data body through a 32 KiB
// buffer: the part reader refills 4 KiB at a time, and reading the socket
// directly would take a 4 MiB upload a thousand reads.
func multipartReader(r *http.Request) (*multipart.Reader, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil || mt != echo.MIMEMultipartForm || params["boundary"] == "" {
		return nil, http.ErrNotMultipart
	}
	return multipart.NewReader(bufio.NewReaderSize(r.Body, 32<<10), params["boundary"]), nil
}

// readPart reads one part of the form; seen holds the names of the fields
// read so far. The file grows with the bytes that arrive, never reserved
// ahead from the declared length: a client that declares 4 MiB and sends
// nothing costs nothing.
func (f *processForm) readPart(part *multipart.Part, seen map[string]bool) error {
	defer part.Close()
	name := part.FormName()
	switch name {
	case "file", "preset", "fixProfile", "standard", "language", "includeExplain", "allDiagnostics", "projectId", "mediaObjectKey":
		if seen[name] {
			return apperr.New(apperr.BadRequest, "the form has the field %s more than once", name).WithDetail("field", name)
		}
		seen[name] = true
	default:
		if _, err := io.Copy(io.Discard, part); err != nil {
			return asBodyError(err)
		}
		return nil
	}
	if name == "file" {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(part); err != nil {
			return asBodyError(err)
		}
		f.req.Data, f.req.Filename = buf.Bytes(), part.FileName()
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return asBodyError(err)
	}
	if len(b) > maxFieldBytes {
		return apperr.New(apperr.BadRequest, "the field %s is too long", name).WithDetail("field", name)
	}
	v := string(b)
	switch name {
	case "preset":
		f.req.Preset = v
	case "fixProfile":
		f.req.FixProfile = v
	case "standard":
		f.req.Standard = v
	case "language":
		f.req.Language = v
	case "includeExplain":
		return formBool(name, v, &f.includeExplain)
	case "allDiagnostics":
		return formBool(name, v, &f.req.AllDiagnostics)
	case "projectId":
		f.projectID = v
	case "mediaObjectKey":
		f.mediaKey = v
	}
	return nil
}

// formBool reads a true/false field; empty leaves dst as it is.
func formBool(name, v string, dst *bool) error {
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return apperr.New(apperr.BadRequest, "%s must be true or false", name).WithDetail("field", name)
	}
	*dst = b
	return nil
}
