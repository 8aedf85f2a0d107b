package s3blob

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// smallParts opens a store whose single PUTs stop at 8 MiB and whose
// parts are 5 MiB (S3's least), so that the multipart path of objects
// over 5 GiB runs on a few MiB.
func smallParts(t *testing.T) *Store {
	t.Helper()
	tg := s3test.Bucket(t)
	s, err := Open(context.Background(), tg.URL(), Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	s.maxSinglePut, s.partSize = 8<<20, 5<<20
	return s
}

// uploads returns the multipart uploads in progress in s's bucket.
func uploads(t *testing.T, s *Store) int {
	t.Helper()
	res, err := s.client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: &s.bucket})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Uploads)
}

// TestMultipart puts contents over the single-PUT limit, of known and
// unknown size, and fails some midway: a success reads back whole with a
// multipart ETag, a failure leaves neither an object nor an upload.
func TestMultipart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := smallParts(t)
	content := bytes.Repeat([]byte("0123456789abcdef"), (12<<20)/16+3) // 12 MiB and 48 bytes: 3 parts
	for _, size := range []int64{int64(len(content)), -1} {
		info, err := s.Put(ctx, "media/m", bytes.NewReader(content), size)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if info.Size != int64(len(content)) || !strings.HasSuffix(info.ETag, `-3"`) {
			t.Errorf("size %d: info %+v, want %d bytes and a 3-part ETag", size, info, len(content))
		}
		rc, gi, err := s.Get(ctx, "media/m", nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, content) || gi.ETag != info.ETag {
			t.Errorf("size %d: read back %d bytes (%v), ETag %s; put %s", size, len(got), err, gi.ETag, info.ETag)
		}
	}
	// An unknown-size content that fits in one part goes up in one PUT.
	if info, err := s.Put(ctx, "media/small", strings.NewReader("small"), -1); err != nil || strings.Contains(info.ETag, "-") {
		t.Errorf("small put of unknown size: %+v, %v; want a single-PUT ETag", info, err)
	}

	canceled, cancel := context.WithCancel(ctx)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		r    io.Reader
		size int64
		kind apperr.Kind
	}{
		{"shorter than declared, in the third part", ctx, bytes.NewReader(content), int64(len(content)) + 1, apperr.BadRequest},
		{"longer than declared, in the third part", ctx, bytes.NewReader(content), int64(len(content)) - 1, apperr.BadRequest},
		{"reader fails in the second part", ctx, io.MultiReader(bytes.NewReader(content[:7<<20]), failing{}), -1, apperr.Internal},
		{"canceled in the second part", canceled, &cancelAt{r: bytes.NewReader(content), n: 7 << 20, cancel: cancel}, -1, apperr.Internal},
	} {
		_, err := s.Put(tc.ctx, "media/f", tc.r, tc.size)
		if err == nil || apperr.KindOf(err) != tc.kind {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.kind.Code())
		}
		if _, _, err := s.Get(ctx, "media/f", nil); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("%s: get: %v, want not_found", tc.name, err)
		}
		if n := uploads(t, s); n != 0 {
			t.Errorf("%s: %d uploads left in progress", tc.name, n)
		}
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// cancelAt cancels its context once n bytes have been read.
type cancelAt struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAt) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}
