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

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
)

// process serves POST /api/v1/process: one counted run of the engine for
// the key's account.
func (h *handler) process(c echo.Context) error {
	p := principalOf(c)
	res, remaining, in, err := h.countedRun(c.Request(), accountPool(&p.Account), p.Account.DailyCap)
	if err != nil {
		return err
	}
	out := newProcessResponse(res, in.includeExplain, explainSkip(&p.Account))
	out.RemainingAPIRunsToday = &remaining
	return writeProcessResponse(c, out)
}

// countedRun reads the form, runs the engine and, once it has succeeded,
// counts the run in pool (spec 8 rule 1). A pool already full is refused
// before the upload is read; one that fills while the run is under way
// refuses it at the end, so the count stays exact. Nothing is held in
// between: a run that fails, hangs or dies with the server keeps no other
// run out and costs nothing.
func (h *handler) countedRun(r *http.Request, pool string, cap int) (*engine.Result, int, processForm, error) {
	ctx := r.Context()
	if err := h.quota.Check(ctx, pool, cap); err != nil {
		return nil, 0, processForm{}, err
	}
	res, in, err := h.run(r)
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

// run reads the process form and runs the engine on it.
func (h *handler) run(r *http.Request) (*engine.Result, processForm, error) {
	in, err := readProcessForm(r)
	if err != nil {
		return nil, in, err
	}
	res, err := h.engine.Process(r.Context(), in.req)
	return res, in, err
}

// processForm is the bound multipart form of a process request.
type processForm struct {
	req            engine.Request
	includeExplain bool
}

// maxFieldBytes bounds a text field of the process form.
const maxFieldBytes = 1 << 10

// readProcessForm streams the multipart form (spec part 4): the file part
// is read into memory once, never spooled to disk; unknown fields are
// skipped. The body is already bounded by the size guard.
func readProcessForm(r *http.Request) (processForm, error) {
	var f processForm
	mr, err := multipartReader(r)
	if err != nil {
		return f, apperr.New(apperr.BadRequest, "the request must be multipart/form-data with a file field").
			WithDetail("field", "file")
	}
	haveFile := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return f, asBodyError(err)
		}
		if err := f.readPart(part, &haveFile, r.ContentLength); err != nil {
			return f, err
		}
	}
	if !haveFile {
		return f, apperr.New(apperr.BadRequest, "the form has no file").WithDetail("field", "file")
	}
	return f, nil
}

// multipartReader reads r's multipart/form-data body through a buffer of
// up to 256 KiB: the part reader refills 4 KiB at a time, and reading the
// socket directly would take a 4 MiB upload a thousand reads.
func multipartReader(r *http.Request) (*multipart.Reader, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil || mt != echo.MIMEMultipartForm || params["boundary"] == "" {
		return nil, http.ErrNotMultipart
	}
	size := int64(256 << 10)
	if r.ContentLength > 0 {
		size = min(size, r.ContentLength)
	}
	return multipart.NewReader(bufio.NewReaderSize(r.Body, int(size)), params["boundary"]), nil
}

// readPart reads one part of the form. size is the request's declared
// length (-1 when unknown), which the size guard has bounded: the file is
// read into a buffer of about that size, not one grown by doubling. A
// second file is refused: each would reserve that size again.
func (f *processForm) readPart(part *multipart.Part, haveFile *bool, size int64) error {
	defer part.Close()
	name := part.FormName()
	if name == "file" {
		if *haveFile {
			return apperr.New(apperr.BadRequest, "the form has more than one file").WithDetail("field", "file")
		}
		var buf bytes.Buffer
		if size > 0 {
			// ReadFrom wants MinRead bytes free before every read, the
			// last one too.
			buf.Grow(int(size) + bytes.MinRead)
		}
		if _, err := buf.ReadFrom(part); err != nil {
			return asBodyError(err)
		}
		f.req.Data, f.req.Filename, *haveFile = buf.Bytes(), part.FileName(), true
		return nil
	}
	var dst *string
	switch name {
	case "preset":
		dst = &f.req.Preset
	case "fixProfile":
		dst = &f.req.FixProfile
	case "standard":
		dst = &f.req.Standard
	case "language":
		dst = &f.req.Language
	case "includeExplain":
	default:
		if _, err := io.Copy(io.Discard, part); err != nil {
			return asBodyError(err)
		}
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return asBodyError(err)
	}
	if len(b) > maxFieldBytes {
		return apperr.New(apperr.BadRequest, "the field %s is too long", name).WithDetail("field", name)
	}
	if dst != nil {
		*dst = string(b)
		return nil
	}
	if len(b) == 0 {
		return nil
	}
	v, err := strconv.ParseBool(string(b))
	if err != nil {
		return apperr.New(apperr.BadRequest, "includeExplain must be true or false").WithDetail("field", name)
	}
	f.includeExplain = v
	return nil
}

// explainSkip says why a requested ExplainAI section is absent: the
// account lacks the entitlement, or (this release) no provider is set up.
func explainSkip(a *account.Account) string {
	if a.Has(account.FeatureProWorkspace) && a.Has(account.FeatureExplainAI) {
		return ExplainNotConfigured
	}
	return ExplainNotEntitled
}
