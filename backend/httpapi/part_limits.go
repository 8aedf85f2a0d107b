package httpapi

import (
	"errors"
	"io"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Bounds on the signed part PUTs of media uploads (docs/security.md,
// Limits): the URL is the credential, so nothing else stops a client from
// holding connections open with bytes trickled in.
const (
	// MaxPartPutsPerUpload bounds the PUTs of one upload session at once:
	// a client uploads a few parts in parallel, not hundreds.
	MaxPartPutsPerUpload = 4
	// MaxPartPutsPerClient bounds them per client address, over all its
	// sessions.
	MaxPartPutsPerClient = 16
	// DefaultMinPartRate is the slowest a part may arrive, on average,
	// once DefaultPartRateGrace has passed: 32 KiB/s takes a 16 MiB part
	// in under 9 minutes, within the part's 15-minute deadline.
	DefaultMinPartRate   = 32 << 10
	DefaultPartRateGrace = 30 * time.Second
)

// errTooSlow ends a part body arriving slower than the minimum rate.
var errTooSlow = errors.New("the part is arriving too slowly")

// partLimits holds a part PUT to the bounds above: 429 rate_limited
// (details.limit "part_puts_per_upload" or "part_puts_per_client",
// retryAfterSeconds) past a count, and a body slower than the minimum
// rate ended, answered 400 bad_request (details.reason "too_slow").
func (h *handler) partLimits(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		session, client := c.Param("uploadId"), c.RealIP()
		if !h.partsByUpload.Enter(session) {
			return apperr.New(apperr.RateLimited, "this upload already has %d parts arriving; send the next when one has finished", MaxPartPutsPerUpload).
				WithDetail("retryAfterSeconds", uploadRetryAfter).WithDetail("limit", "part_puts_per_upload")
		}
		defer h.partsByUpload.Leave(session)
		if !h.partsByClient.Enter(client) {
			return apperr.New(apperr.RateLimited, "this client already has %d parts arriving; send the next when one has finished", MaxPartPutsPerClient).
				WithDetail("retryAfterSeconds", uploadRetryAfter).WithDetail("limit", "part_puts_per_client")
		}
		defer h.partsByClient.Leave(client)
		// A copy of the request carries the wrapped body: net/http decides
		// from its own request's body whether the connection can be kept
		// after a body left unread, and must keep seeing it.
		req := *c.Request()
		req.Body = &minRate{ReadCloser: req.Body, min: h.minPartRate, grace: h.partRateGrace, start: time.Now()}
		c.SetRequest(&req)
		err := next(c)
		if errors.Is(err, errTooSlow) {
			return apperr.New(apperr.BadRequest, "the part arrived slower than %d bytes a second; send it again", h.minPartRate).
				WithDetail("reason", "too_slow").WithDetail("minBytesPerSecond", h.minPartRate).Wrap(err)
		}
		return err
	}
}

// minRate ends a body whose bytes, once grace has passed, arrive slower on
// average than min bytes a second. It reads the wall clock: what it
// measures is the network, which no injected clock drives.
type minRate struct {
	io.ReadCloser
	min   int64
	grace time.Duration
	start time.Time
	n     int64
}

func (m *minRate) Read(p []byte) (int, error) {
	n, err := m.ReadCloser.Read(p)
	m.n += int64(n)
	if el := time.Since(m.start); err == nil && el > m.grace && float64(m.n) < float64(m.min)*el.Seconds() {
		return n, errTooSlow
	}
	return n, err
}
