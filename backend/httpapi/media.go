package httpapi

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

// partDeadline bounds one part's PUT: 16 MiB (or a 64 MiB single upload)
// at a slow 100 KB/s, far past the server's default read timeout.
const partDeadline = 15 * time.Minute

// withMedia answers 503 unavailable when video jobs are off on this
// deployment ([Options.Media] nil), before the body is read.
func (h *handler) withMedia(next echo.HandlerFunc) echo.HandlerFunc {
	if h.media != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "media uploads and video jobs are off on this deployment (ffmpeg is not available)").
			WithDetail("reason", "video_off")
	}
}

func origin(c echo.Context) string { return c.Scheme() + "://" + c.Request().Host }

// uploadView shows s with its URLs: the node's, prefixed with the
// request's origin, or the blob store's presigned ones.
func (h *handler) uploadView(c echo.Context, s *media.Session) (UploadView, error) {
	urls, err := h.media.URLs(c.Request().Context(), s)
	if err != nil {
		return UploadView{}, err
	}
	return newUploadView(s, urls, origin(c)), nil
}

// createUpload serves POST /api/v1/media/upload: 200 with the session
// and its signed PUT URLs.
func (h *handler) createUpload(c echo.Context) error {
	var in uploadRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	s, err := h.media.Create(c.Request().Context(), principalOf(c).Account.ID, media.NewUpload{ProjectID: in.ProjectID,
		Filename: in.Filename, ContentType: in.ContentType, Bytes: in.Bytes, URLTTLSeconds: in.URLTTLSeconds})
	if err != nil {
		return err
	}
	v, err := h.uploadView(c, s)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// getUpload serves GET /api/v1/media/upload/{uploadId}: the session,
// with the parts received so far and, while pending, its URLs again (a
// client resumes by sending the missing parts).
func (h *handler) getUpload(c echo.Context) error {
	s, err := h.media.Get(c.Request().Context(), principalOf(c).Account.ID, c.Param("uploadId"))
	if err != nil {
		return err
	}
	v, err := h.uploadView(c, s)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// listUploads serves GET /api/v1/media?projectId=: the project's latest
// sessions, newest first.
func (h *handler) listUploads(c echo.Context) error {
	list, err := h.media.List(c.Request().Context(), principalOf(c).Account.ID, c.QueryParam("projectId"))
	if err != nil {
		return err
	}
	out := uploadList{Media: make([]UploadView, 0, len(list))}
	for i := range list {
		v, err := h.uploadView(c, &list[i])
		if err != nil {
			return err
		}
		out.Media = append(out.Media, v)
	}
	return c.JSON(http.StatusOK, out)
}

// completeUpload serves POST /api/v1/media/upload/{uploadId}/complete:
// 200 with the completed session and its probe.
func (h *handler) completeUpload(c echo.Context) error {
	var in completeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	parts := make([]media.Part, len(in.Parts))
	for i, p := range in.Parts {
		parts[i] = media.Part{Number: p.PartNumber, ETag: p.ETag}
	}
	s, err := h.media.Complete(c.Request().Context(), principalOf(c).Account.ID, c.Param("uploadId"),
		media.CompleteInput{ProjectID: in.ProjectID, ObjectKey: in.ObjectKey, Multipart: in.Multipart, Parts: parts})
	if err != nil {
		return err
	}
	v, err := h.uploadView(c, s)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// putPart serves PUT /api/uploads/{uploadId}/{part}?expires&sig: the
// part's bytes streamed to the blob store; 200 with the part and its
// ETag header.
func (h *handler) putPart(c echo.Context) error {
	req := c.Request()
	// A part may take longer than the server's read timeout to arrive.
	_ = http.NewResponseController(c.Response().Writer).SetReadDeadline(time.Now().Add(partDeadline))
	p, err := h.media.PutPart(req.Context(), media.PutInput{UploadID: c.Param("uploadId"), Part: c.Param("part"),
		Expires: c.QueryParam("expires"), Sig: c.QueryParam("sig"), Body: req.Body, ContentLength: req.ContentLength})
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", `"`+p.ETag+`"`)
	return c.JSON(http.StatusOK, PartView{PartNumber: p.Number, ETag: p.ETag, Bytes: p.Bytes})
}
