package s3blob

import (
	"errors"
	"io"
	"sync"
)

// Why a sizedReader stopped giving bytes, other than r's own error.
var (
	errShort   = errors.New("s3blob: the content is shorter than declared")
	errLong    = errors.New("s3blob: the content is longer than declared")
	errStopped = errors.New("s3blob: the put is over")
)

// sizedReader is the body of a put: it gives exactly size bytes of r (any
// number when size is -1) or fails the upload, and records why, since the
// transport reports a failing body as a failure of its own. A reader that
// has more than size bytes fails before its last bytes are handed over,
// so the upload can never complete with them.
//
// net/http may go on reading a request body after the request returned;
// the mutex, held across r.Read, and stop make sure r is never read once
// Put has returned.
type sizedReader struct {
	mu      sync.Mutex
	r       io.Reader
	size    int64 // -1 when unknown
	n       int64 // bytes given so far
	err     error // the first failure: r's error, errShort or errLong
	eof     bool
	stopped bool
}

func (s *sizedReader) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopped:
		return 0, errStopped
	case s.err != nil:
		return 0, s.err
	case s.eof:
		return 0, io.EOF
	case s.size >= 0 && s.n == s.size:
		return 0, s.atEnd()
	}
	if s.size >= 0 && int64(len(p)) > s.size-s.n {
		p = p[:s.size-s.n]
	}
	k, err := s.r.Read(p)
	s.n += int64(k)
	switch {
	case err == io.EOF && s.size >= 0 && s.n < s.size:
		s.err = errShort
		return 0, s.err
	case err == io.EOF:
		s.eof = true
		return k, io.EOF
	case err != nil:
		s.err = err
		return 0, err
	case s.size >= 0 && s.n == s.size:
		if err := s.atEnd(); err != io.EOF {
			return 0, err
		}
		return k, io.EOF
	}
	return k, nil
}

// end checks, before an upload that will not read it, that the reader has
// nothing: io.EOF, or the failure (errLong, r's error).
func (s *sizedReader) end() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.atEnd()
}

// atEnd reads one byte past the declared size: io.EOF when there is none,
// else the failure, recorded. Call it with mu held.
func (s *sizedReader) atEnd() error {
	var b [1]byte
	k, err := io.ReadFull(s.r, b[:])
	switch {
	case k > 0:
		s.err = errLong
	case err == io.EOF:
		s.eof = true
		return io.EOF
	default:
		s.err = err
	}
	return s.err
}

// stop ends reading, waiting for a Read in progress, and returns how many
// bytes were given and the reader's failure, if any.
func (s *sizedReader) stop() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	return s.n, s.err
}
