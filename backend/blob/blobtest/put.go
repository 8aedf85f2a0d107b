package blobtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

// failingReader gives n zero bytes, then fails.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("connection reset")
	}
	k := min(len(p), r.n)
	clear(p[:k])
	r.n -= k
	return k, nil
}

// testPutFailures puts over an object and fails in each way a put can:
// the old object stays, whole, and nothing else appears.
func testPutFailures(t *testing.T, s blob.Store) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	mustPut(t, s, "k", "old")
	for _, tc := range []struct {
		name string
		ctx  context.Context
		r    io.Reader
		size int64
		kind apperr.Kind
		is   error
	}{
		{"shorter than declared", context.Background(), strings.NewReader("abc"), 4, apperr.BadRequest, nil},
		{"longer than declared", context.Background(), strings.NewReader("abcde"), 4, apperr.BadRequest, nil},
		{"longer than an empty object", context.Background(), strings.NewReader("a"), 0, apperr.BadRequest, nil},
		{"much longer than declared", context.Background(), bytes.NewReader(make([]byte, 3<<20)), 1 << 20, apperr.BadRequest, nil},
		{"reader fails, size known", context.Background(), &failingReader{n: 1 << 20}, 2 << 20, apperr.Internal, nil},
		{"reader fails, size unknown", context.Background(), &failingReader{n: 1 << 20}, -1, apperr.Internal, nil},
		// Past the first part of a multipart upload.
		{"reader fails after 20 MiB", context.Background(), &failingReader{n: 20 << 20}, -1, apperr.Internal, nil},
		{"canceled", canceled, strings.NewReader("abc"), 3, apperr.Internal, context.Canceled},
	} {
		_, err := s.Put(tc.ctx, "k", tc.r, tc.size)
		if err == nil {
			t.Errorf("%s: put succeeded", tc.name)
			continue
		}
		if apperr.KindOf(err) != tc.kind || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: got %v, want kind %s", tc.name, err, tc.kind.Code())
		}
		if e, ok := apperr.As(err); ok && e.Kind == apperr.BadRequest && e.Details["expectedBytes"] != tc.size {
			t.Errorf("%s: details %v, want expectedBytes %d", tc.name, e.Details, tc.size)
		}
		if got, _ := read(t, s, "k", nil); got != "old" {
			t.Errorf("%s: object is %q, want the old one", tc.name, got)
		}
	}
	// A failed put of a new key leaves no object either.
	if _, err := s.Put(context.Background(), "new", &failingReader{n: 10}, -1); err == nil {
		t.Fatal("put of a failing reader succeeded")
	}
	if got := keys(list(t, s, "")); !slices.Equal(got, []string{"k"}) {
		t.Errorf("objects %q, want only k", got)
	}
}

// cancelAfter cancels its context once n bytes have been read, and then
// gives no more: a client that goes away mid-upload. (A reader that kept
// giving bytes could let the store finish the object before it noticed
// the cancel, and the test would race.)
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, context.Canceled
	}
	k, err := c.r.Read(p[:min(len(p), c.n)])
	c.n -= k
	if c.n <= 0 {
		c.cancel()
	}
	return k, err
}

func testPutCanceledMidway(t *testing.T, s blob.Store) {
	for _, tc := range []struct {
		name       string
		size, read int64
	}{
		{"size known", 4 << 20, 1 << 20},
		{"size unknown, past the first part", -1, 20 << 20},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		r := &cancelAfter{r: bytes.NewReader(make([]byte, 24<<20)), n: int(tc.read), cancel: cancel}
		if tc.size >= 0 {
			r.r = bytes.NewReader(make([]byte, tc.size))
		}
		_, err := s.Put(ctx, "big", r, tc.size)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", tc.name, err)
		}
		if _, _, err := s.Get(context.Background(), "big", nil); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("%s: get: %v, want not_found", tc.name, err)
		}
	}
}
