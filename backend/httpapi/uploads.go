package httpapi

import (
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Defaults of the upload limits in [Options].
const (
	// DefaultMaxUploads bounds the process requests (bodies being received
	// or files being checked) in flight at once, whoever sends them.
	DefaultMaxUploads = 16
	// DefaultMaxUploadsPerClient bounds them per client: an account for a
	// key or a dashboard session, an address for the homepage converter.
	DefaultMaxUploadsPerClient = 4
	// DefaultBodyTimeout is how long a request body may take to arrive,
	// counted from the end of its headers. A 4.25 MiB upload within it
	// needs about 150 KB/s; a body that trickles slower is cut off instead
	// of holding its connection and memory until the server's 2-minute
	// read timeout.
	DefaultBodyTimeout = 30 * time.Second
)

// uploadRetryAfter is the Retry-After, in seconds, of a refusal by the
// upload limits: a process request takes about a second.
const uploadRetryAfter = 2

// uploadGate counts the uploads in flight, overall and per client. It is
// safe for concurrent use.
type uploadGate struct {
	max, perClient int

	mu       sync.Mutex
	total    int
	byClient map[string]int
}

func newUploadGate(max, perClient int) *uploadGate {
	if max <= 0 {
		max = DefaultMaxUploads
	}
	if perClient <= 0 {
		perClient = DefaultMaxUploadsPerClient
	}
	return &uploadGate{max: max, perClient: perClient, byClient: map[string]int{}}
}

// enter takes a slot for client. It returns [apperr.RateLimited] when the
// client has all its slots in use and [apperr.Unavailable] when the server
// has, both with details.retryAfterSeconds.
func (g *uploadGate) enter(client string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.byClient[client] >= g.perClient:
		return apperr.New(apperr.RateLimited, "this client already has %d uploads in progress; retry when one has finished", g.perClient).
			WithDetail("retryAfterSeconds", uploadRetryAfter).WithDetail("limit", "uploads_per_client")
	case g.total >= g.max:
		return apperr.New(apperr.Unavailable, "the server is busy with %d uploads; retry shortly", g.max).
			WithDetail("retryAfterSeconds", uploadRetryAfter).WithDetail("limit", "uploads")
	}
	g.total++
	g.byClient[client]++
	return nil
}

func (g *uploadGate) leave(client string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.byClient[client]--; g.byClient[client] <= 0 {
		delete(g.byClient, client)
	}
}

// uploadSlot holds one of the gate's slots for the whole request: the
// body, the engine run and the response. Memory then stays bounded by the
// slots times the request limit, whatever number of connections is open.
// It runs after authentication, so a client is its account when known.
func (h *handler) uploadSlot(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		client := "ip:" + c.RealIP()
		if p := principalOf(c); p != nil {
			client = "account:" + p.Account.ID
		}
		if err := h.uploads.enter(client); err != nil {
			return err
		}
		defer h.uploads.leave(client)
		h.metrics.UploadStarted()
		defer h.metrics.UploadFinished()
		return next(c)
	}
}

// deadlineBody is a request body that must arrive by a deadline set on
// the connection. Reaching its end lifts the deadline: the connection's
// reader goes on reading in the background while the handler works, and a
// deadline passing then would cancel the request.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// limitBodyTime gives the request body [Options.BodyTimeout] to arrive.
// The deadline is on the network connection (wall-clock time, never the
// injected clock); a handler not on a connection (the desktop window's
// in-process requests) has none.
func (h *handler) limitBodyTime(c echo.Context) {
	req := c.Request()
	rc := http.NewResponseController(c.Response())
	if err := rc.SetReadDeadline(time.Now().Add(h.bodyTime)); err != nil {
		return
	}
	req.Body = &deadlineBody{ReadCloser: req.Body, rc: rc}
}

// isBodyTimeout reports whether err is the body deadline passing.
func isBodyTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }
