package blob

import (
	"context"
	"errors"
	"io"
)

// NewReader returns a [Reader] of the size bytes of key in store.
func NewReader(ctx context.Context, store Store, key string, size int64) *Reader {
	return &Reader{ctx: ctx, store: store, key: key, size: size}
}

// Reader reads an object through ranged gets: a Seek costs nothing, the
// next Read opens the object from there. It is an io.ReadSeekCloser,
// which http.ServeContent serves ranges from, over any [Store] (one get
// per range, as S3 would serve it).
type Reader struct {
	ctx   context.Context
	store Store
	key   string
	size  int64
	off   int64
	rc    io.ReadCloser
}

// Read reads from the current offset, opening the object there first.
func (r *Reader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	if r.rc == nil {
		rc, _, err := r.store.Get(r.ctx, r.key, &Range{Start: r.off, Length: -1})
		if err != nil {
			return 0, err
		}
		r.rc = rc
	}
	n, err := r.rc.Read(p)
	r.off += int64(n)
	return n, err
}

// Seek moves the offset; the object is opened again on the next Read.
func (r *Reader) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = r.off + offset
	case io.SeekEnd:
		abs = r.size + offset
	default:
		return 0, errors.New("blob: reader: bad whence")
	}
	if abs < 0 {
		return 0, errors.New("blob: reader: negative position")
	}
	if abs != r.off {
		r.closeBody()
		r.off = abs
	}
	return abs, nil
}

// Close releases the open get, if any.
func (r *Reader) Close() error {
	r.closeBody()
	return nil
}

func (r *Reader) closeBody() {
	if r.rc != nil {
		_ = r.rc.Close()
		r.rc = nil
	}
}

// Check opens the object once and closes it, so that missing bytes are
// an error of kind apperr.NotFound before any header is sent.
func (r *Reader) Check() error {
	rc, _, err := r.store.Get(r.ctx, r.key, &Range{Start: 0, Length: 0})
	if err != nil {
		return err
	}
	return rc.Close()
}
