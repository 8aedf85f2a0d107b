package ffmpeg

import (
	"bytes"
	"strings"
)

// stderrLimit is how much of a process's standard error is kept: the
// end, where ffmpeg says why it failed.
const stderrLimit = 16 << 10

// ring keeps the last stderrLimit bytes written to it. It is written by
// one goroutine and read after that one is done.
type ring struct {
	buf       []byte
	truncated bool
}

// Write keeps p's tail; it never fails.
func (r *ring) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	// Trim only past twice the limit, so copies stay amortised.
	if len(r.buf) > 2*stderrLimit {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-stderrLimit:]...)
		r.truncated = true
	}
	return len(p), nil
}

// String returns the kept text, starting at a line when the start was
// cut, without surrounding blank space.
func (r *ring) String() string {
	b, cut := r.buf, r.truncated
	if len(b) > stderrLimit {
		b, cut = b[len(b)-stderrLimit:], true
	}
	if cut {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return strings.TrimSpace(string(b))
}
