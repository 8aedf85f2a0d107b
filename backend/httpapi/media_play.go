package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// PlayPrefix starts the signed media play links: like the artifact
// download links they need no key, so a <video> element can fetch them
// (with ranges) and a link shared by mistake dies at its expiry.
const PlayPrefix = "/api/media/"

// playID is what a play link signs: the upload id under a prefix of its
// own, so that no play link verifies as an artifact link or back.
func playID(uploadID string) string { return "media:" + uploadID }

// mediaLink is the answer of GET /api/v1/media/upload/{uploadId}/link
// (the OpenAPI operation getMediaLink).
type mediaLink struct {
	UploadID    string    `json:"uploadId"`
	URL         string    `json:"url"`
	ExpiresAt   time.Time `json:"expiresAt"`
	ContentType string    `json:"contentType"`
	Bytes       int64     `json:"bytes"`
}

// mediaLink serves GET /api/v1/media/upload/{uploadId}/link: a signed
// link that plays the completed media (ttlSeconds, 60 to 86400, default
// an hour).
func (h *handler) mediaLink(c echo.Context) error {
	ttl, err := linkTTL(c)
	if err != nil {
		return err
	}
	s, err := h.media.Play(c.Request().Context(), principalOf(c).Account.ID, c.Param("uploadId"))
	if err != nil {
		return err
	}
	link, expires := h.signedLink(c, PlayPrefix, s.ID, playID(s.ID), ttl)
	return c.JSON(http.StatusOK, mediaLink{UploadID: s.ID, URL: link, ExpiresAt: expires, ContentType: s.ContentType, Bytes: s.Bytes})
}

// play serves GET (and HEAD) /api/media/{uploadId}?expires&sig: the
// media's bytes, inline and with ranges, for anyone holding an unexpired,
// unaltered play link; 403 for a bad or expired link, 404 or 409 when the
// media is gone. A blob store that presigns answers 302 to its own URL.
func (h *handler) play(c echo.Context) error {
	id := c.Param("uploadId")
	if err := h.links.Verify(playID(id), c.QueryParam("expires"), c.QueryParam("sig"), h.now()); err != nil {
		return err
	}
	ctx := c.Request().Context()
	s, r, err := h.media.OpenPlay(ctx, id)
	if err != nil {
		return err
	}
	defer r.Close()
	w := c.Response()
	w.Header().Set("Cache-Control", "private, no-store")
	if expires, err := strconv.ParseInt(c.QueryParam("expires"), 10, 64); err == nil {
		u, err := h.media.PresignPlay(ctx, s, max(time.Until(time.Unix(expires, 0)), time.Second))
		if err != nil {
			return err
		}
		if u != "" {
			return c.Redirect(http.StatusFound, u)
		}
	}
	if err := r.Check(); err != nil {
		return err
	}
	w.Header().Set(echo.HeaderContentType, s.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox")
	http.ServeContent(w, c.Request(), "", s.CompletedAt, r)
	return nil
}
