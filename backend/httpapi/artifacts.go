package httpapi

import (
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/project"
)

// DownloadPrefix starts the signed artifact download links. They are
// outside /api/v1: the link itself is the credential (no API key), so it
// is not a v1 operation.
const DownloadPrefix = "/api/artifacts/"

// artifactLink serves GET /api/v1/artifacts/{artifactId}?ttlSeconds=N: a
// fresh signed download link valid for ttlSeconds (60 to 86400, default
// 3600).
func (h *handler) artifactLink(c echo.Context) error {
	ttl, err := linkTTL(c)
	if err != nil {
		return err
	}
	a, err := h.exports.Artifact(c.Request().Context(), principalOf(c).Account.ID, c.Param("artifactId"))
	if err != nil {
		return err
	}
	link, expires := h.signedLink(c, DownloadPrefix, a.ID, a.ID, ttl)
	return c.JSON(http.StatusOK, artifactURL{ArtifactID: a.ID, URL: link, ExpiresAt: expires,
		Filename: a.Filename, ContentType: a.ContentType, Bytes: a.Bytes})
}

// linkTTL reads a link's ttlSeconds query (60 to 86400, default 3600):
// [apperr.BadRequest] (details.field "ttlSeconds") otherwise.
func linkTTL(c echo.Context) (time.Duration, error) {
	if c.QueryParam("ttlSeconds") == "" {
		return project.DefaultLinkTTL, nil
	}
	secs, err := queryInt(c, "ttlSeconds")
	if err != nil {
		return 0, err
	}
	return project.CheckLinkTTL(secs)
}

// signedLink is the keyless link under prefix to id on this origin,
// signing signed (id, or id under a prefix of its own) until ttl from
// now, and its expiry.
func (h *handler) signedLink(c echo.Context, prefix, id, signed string, ttl time.Duration) (string, time.Time) {
	expires := h.now().UTC().Truncate(time.Second).Add(ttl)
	q := url.Values{"expires": {strconv.FormatInt(expires.Unix(), 10)}, "sig": {h.links.Sign(signed, expires)}}
	return origin(c) + prefix + id + "?" + q.Encode(), expires
}

// download serves GET (and HEAD) /api/artifacts/{artifactId}?expires&sig:
// the artifact's bytes for anyone holding an unexpired, unaltered signed
// link, with ranges (http.ServeContent). A bad or expired link is 403
// forbidden in the envelope; an artifact gone since is 404. With a blob
// store that presigns (s3://...&presign=true) it answers 302 to the
// store's own URL for the artifact, valid as long as the link.
func (h *handler) download(c echo.Context) error {
	id := c.Param("artifactId")
	if err := h.links.Verify(id, c.QueryParam("expires"), c.QueryParam("sig"), h.now()); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if expires, err := strconv.ParseInt(c.QueryParam("expires"), 10, 64); err == nil {
		// A store clients can reach serves the bytes itself.
		url, err := h.exports.PresignArtifact(ctx, id, time.Unix(expires, 0))
		if err != nil {
			return err
		}
		if url != "" {
			c.Response().Header().Set("Cache-Control", "private, no-store")
			return c.Redirect(http.StatusFound, url)
		}
	}
	a, r, err := h.exports.OpenArtifact(ctx, id)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Check(); err != nil {
		return err
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, a.ContentType)
	w.Header().Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename}))
	w.Header().Set("ETag", `"`+a.SHA256+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
	// A template chooses its file's content type, text/html included: the
	// browser must neither guess another type nor run what it opens,
	// were the attachment ever shown inline (docs/security.md).
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox")
	http.ServeContent(w, c.Request(), "", a.CreatedAt, r)
	return nil
}
