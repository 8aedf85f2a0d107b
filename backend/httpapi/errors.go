package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// statusOf is the only code-to-status table (docs/api.md, Errors).
func statusOf(k apperr.Kind) int {
	switch k {
	case apperr.BadRequest, apperr.RequestTooLarge:
		return http.StatusBadRequest
	case apperr.Unauthorized, apperr.APIKeyRevoked, apperr.APIKeyExpired:
		return http.StatusUnauthorized
	case apperr.Forbidden:
		return http.StatusForbidden
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.InputTooLarge:
		return http.StatusRequestEntityTooLarge
	case apperr.ProcessingFailed:
		return http.StatusUnprocessableEntity
	case apperr.RateLimited, apperr.QuotaExceeded:
		return http.StatusTooManyRequests
	case apperr.NotImplemented:
		return http.StatusNotImplemented
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	case apperr.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	}
	return http.StatusInternalServerError
}

// fromEcho rewrites echo's own errors into ours: no route is 404
// not_found; a route's path with another method is 405
// method_not_allowed, naming the methods of echo's Allow header in
// details.allow; an oversized body is 400 payload_too_large like the size
// guard's.
func fromEcho(he *echo.HTTPError, allow string) *apperr.Error {
	switch he.Code {
	case http.StatusNotFound:
		return apperr.New(apperr.NotFound, "No route matches the method and path.")
	case http.StatusMethodNotAllowed:
		methods := strings.Split(allow, ", ")
		return apperr.New(apperr.MethodNotAllowed, "This path does not take that method; it takes %s.", allow).
			WithDetail("allow", methods)
	case http.StatusRequestEntityTooLarge:
		return apperr.New(apperr.RequestTooLarge, "the request is too large")
	case http.StatusUnauthorized:
		return apperr.New(apperr.Unauthorized, "unauthorized")
	case http.StatusForbidden:
		return apperr.New(apperr.Forbidden, "forbidden")
	case http.StatusTooManyRequests:
		return apperr.New(apperr.RateLimited, "too many requests")
	case http.StatusServiceUnavailable:
		return apperr.New(apperr.Unavailable, "unavailable")
	}
	if he.Code >= 400 && he.Code < 500 {
		msg, ok := he.Message.(string)
		if !ok {
			msg = http.StatusText(he.Code)
		}
		return apperr.New(apperr.BadRequest, "%s", msg)
	}
	return &apperr.Error{Kind: apperr.Internal, Message: "echo", Err: he}
}

// handleError is echo's HTTPErrorHandler: it writes every failure as the
// API's error envelope (docs/api.md, Errors). Anything that is not an
// *apperr.Error becomes 500 internal_error with a generic message; its
// text goes to the log only.
func (h *handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		// The client went away mid-request (a long template test, an
		// export): nobody reads an answer, and nothing failed here.
		h.log.Debug("client gone before the answer", "requestId", requestIDOf(c), "path", redactPath(c.Request().URL.Path))
		return
	}
	e, ok := apperr.As(err)
	if !ok {
		var he *echo.HTTPError
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &he):
			e = fromEcho(he, c.Response().Header().Get(echo.HeaderAllow))
			if he.Code == http.StatusMethodNotAllowed && c.Path() == uiFallback {
				// Only the UI's catch-all took the path, for GET: to any
				// other method it is no route at all.
				c.Response().Header().Del(echo.HeaderAllow)
				e = fromEcho(echo.ErrNotFound, "")
			}
		case errors.As(err, &mbe):
			e = requestTooLarge(mbe.Limit)
		default:
			e = &apperr.Error{Kind: apperr.Internal, Err: err}
		}
	}
	if e.Kind == apperr.Internal {
		h.log.LogAttrs(c.Request().Context(), slog.LevelError, "internal error",
			slog.String("requestId", requestIDOf(c)), slog.String("path", redactPath(c.Request().URL.Path)),
			slog.String("error", err.Error()))
	}
	if s, ok := h.retryAfter(e); ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(s))
		h.metrics.Refused(e.Code())
	}
	c.Set(ctxErrorCode, e.Code())
	status := statusOf(e.Kind)
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	if werr := c.JSON(status, e.Envelope()); werr != nil {
		h.log.Debug("writing error response", "requestId", requestIDOf(c), "error", werr.Error())
	}
}

// retryAfter returns the Retry-After seconds of a 429 or 503: for
// rate_limited and unavailable details.retryAfterSeconds (an unavailable
// error without it gets no header), for quota_exceeded the time until
// details.resetsAt (the next UTC midnight); rounded up, at least one.
func (h *handler) retryAfter(e *apperr.Error) (int, bool) {
	switch e.Kind {
	case apperr.RateLimited, apperr.Unavailable:
		return wholeSeconds(e.Details["retryAfterSeconds"])
	case apperr.QuotaExceeded:
		var at time.Time
		switch v := e.Details["resetsAt"].(type) {
		case string:
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return 0, false
			}
			at = t
		case time.Time:
			at = v
		default:
			return 0, false
		}
		return wholeSeconds(at.Sub(h.now()).Seconds())
	}
	return 0, false
}

// wholeSeconds reads a number of seconds of any numeric type, rounded up
// to at least one.
func wholeSeconds(v any) (int, bool) {
	var s int
	switch n := v.(type) {
	case int:
		s = n
	case int64:
		s = int(n)
	case float64:
		s = int(n)
		if float64(s) < n {
			s++
		}
	default:
		return 0, false
	}
	return max(s, 1), true
}
