package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// HeaderRequestID carries the request id both ways.
const HeaderRequestID = "X-Request-Id"

const (
	ctxRequestID = "captionqa.requestID"
	ctxErrorCode = "captionqa.errorCode"
)

// requestID keeps a well-formed X-Request-Id of the caller, or mints one,
// and echoes it on the response so a caller can quote it.
func (h *handler) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(HeaderRequestID)
		if !validRequestID(id) {
			id = uuid.NewString()
		}
		c.Set(ctxRequestID, id)
		c.Response().Header().Set(HeaderRequestID, id)
		return next(c)
	}
}

// validRequestID accepts short ids of safe characters only, so a caller
// cannot inject anything into the logs through the header.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:", r)
		if !ok {
			return false
		}
	}
	return true
}

func requestIDOf(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}

// accessLog writes one line per request. It logs the path only: never the
// query string (a caller may have put a key there), never a header.
func (h *handler) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			// Render now, so the line carries the final status.
			c.Error(err)
		}
		req, res := c.Request(), c.Response()
		attrs := []slog.Attr{
			slog.String("requestId", requestIDOf(c)),
			slog.String("method", req.Method),
			slog.String("path", redactPath(req.URL.Path)),
			slog.Int("status", res.Status),
			slog.Int64("bytes", res.Size),
			slog.Duration("duration", time.Since(start)),
		}
		if code, ok := c.Get(ctxErrorCode).(string); ok {
			attrs = append(attrs, slog.String("code", code))
		}
		h.log.LogAttrs(req.Context(), slog.LevelInfo, "http request", attrs...)
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		h.metrics.ObserveRequest(route, req.Method, res.Status, time.Since(start))
		return nil
	}
}

// redactPath hides any path segment that looks like a key, in case a
// caller pasted one into the URL.
func redactPath(p string) string {
	if !strings.Contains(p, "cqa_") {
		return p
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.Contains(s, "cqa_") {
			parts[i] = "[redacted]"
		}
	}
	return strings.Join(parts, "/")
}

// recoverPanic turns a panic into 500 internal_error. The panic value and
// stack go to the log only.
func (h *handler) recoverPanic(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				h.log.Error("panic serving request", "requestId", requestIDOf(c), "path", redactPath(c.Request().URL.Path),
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				err = &apperr.Error{Kind: apperr.Internal, Message: "panic", Err: errPanic}
			}
		}()
		return next(c)
	}
}

var errPanic = errors.New("httpapi: handler panicked")

// isKeyParam reports whether name is a query parameter name that betrays
// a key in the URL.
func isKeyParam(name string) bool {
	switch strings.ToLower(name) {
	case "api_key", "apikey", "api-key", "key", "token", "access_token", "authorization", "bearer":
		return true
	}
	return false
}

// hasKeyInQuery reports whether a query string carries something like a
// key: a parameter named like one, or the secrets' tag anywhere in it, as
// a name, a value or part of one, escaped or not. The raw string is read
// as well as the parsed one, since parsing drops pairs it cannot decode.
func hasKeyInQuery(u *url.URL, params url.Values) bool {
	// The tag's underscore may come percent-escaped.
	raw := strings.ReplaceAll(strings.ToLower(u.RawQuery), "%5f", "_")
	if strings.Contains(raw, account.SecretTag) {
		return true
	}
	for name, values := range params {
		if isKeyParam(name) || strings.Contains(strings.ToLower(name), account.SecretTag) {
			return true
		}
		for _, v := range values {
			if strings.Contains(strings.ToLower(v), account.SecretTag) {
				return true
			}
		}
	}
	return false
}

// rejectKeyInQuery refuses any request that carries something like a key
// in its query string (docs/security.md, Keys), whatever the route and
// whether or not the request also sends the header: URLs end up in logs
// and histories. The query is never logged, so the refusal leaks nothing
// either.
func (h *handler) rejectKeyInQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if hasKeyInQuery(c.Request().URL, c.QueryParams()) {
			return apperr.New(apperr.BadRequest, "API keys must not be sent in the query string; use the header Authorization: Bearer <API_KEY>")
		}
		return next(c)
	}
}

// sizeGuard refuses a request whose declared Content-Length exceeds max
// before reading a byte of it, and cuts off a body that grows past max
// anyway (chunked encoding): both are 400 payload_too_large. The body must
// also arrive within [Options.BodyTimeout] (400 bad_request, details.reason
// "body_timeout").
func (h *handler) sizeGuard(max int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.ContentLength > max {
				return requestTooLarge(max)
			}
			req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, max)
			h.limitBodyTime(c)
			return next(c)
		}
	}
}

func requestTooLarge(max int64) *apperr.Error {
	return apperr.New(apperr.RequestTooLarge, "the request is larger than the limit of %d bytes", max).
		WithDetail("limitBytes", max)
}

// asBodyError maps a failure to read the request body: past the size
// guard it is payload_too_large, too slow it is bad_request with
// details.reason "body_timeout", otherwise a bad request.
func asBodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return requestTooLarge(mbe.Limit)
	}
	if isBodyTimeout(err) {
		return apperr.New(apperr.BadRequest, "the request body did not arrive in time; send it faster or in a smaller request").
			WithDetail("reason", "body_timeout").Wrap(err)
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	return apperr.New(apperr.BadRequest, "the request body could not be read: %v", err).Wrap(err)
}
