package s3blob

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

// Get opens the object, or rng's bytes of it, with one GET; Info describes
// the whole object (Size is its full length). A range whose Length runs
// past the end is cut at the end. A zero-length or invalid range costs a
// HEAD instead of the GET (HTTP cannot ask for zero bytes), and one that
// starts at or past the end a HEAD after it. The body streams from the
// store: a later Put or Delete may or may not cut a reader that is still
// open. Errors:
// [apperr.BadRequest] for an invalid key or a range outside the object
// (Start below 0 or past the end, Length below -1; details "size");
// [apperr.NotFound] when there is no object; ctx's error when it is done;
// [apperr.Unavailable] (details "retryAfterSeconds") when the store cannot
// be reached.
func (s *Store) Get(ctx context.Context, key string, rng *blob.Range) (io.ReadCloser, blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return nil, blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, blob.Info{}, s.fail(ctx, "get", key, err)
	}
	if rng != nil && (rng.Start < 0 || rng.Length < -1 || rng.Length == 0) {
		return s.emptyRange(ctx, key, rng)
	}
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &key}
	ranged := rng != nil && (rng.Length > 0 || rng.Start > 0)
	if ranged && rng.Length > 0 {
		in.Range = aws.String(fmt.Sprintf("bytes=%d-%d", rng.Start, rng.Start+rng.Length-1))
	} else if ranged {
		in.Range = aws.String(fmt.Sprintf("bytes=%d-", rng.Start))
	}
	out, err := s.client.GetObject(ctx, in)
	if err != nil {
		if resp, ok := answerOf(err); ranged && ok && resp.status == http.StatusRequestedRangeNotSatisfiable {
			// Start is at or past the end: empty when at it.
			return s.emptyRange(ctx, key, rng)
		}
		return nil, blob.Info{}, s.getFailed(ctx, key, err)
	}
	info := blob.Info{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: etag(out.ETag), ModTime: modTime(aws.ToTime(out.LastModified))}
	if ranged {
		if info.Size, err = totalSize(aws.ToString(out.ContentRange)); err != nil {
			out.Body.Close()
			return nil, blob.Info{}, fmt.Errorf("s3blob: get %s: %w", key, err)
		}
	}
	return out.Body, info, nil
}

// emptyRange answers a range that reads nothing or is invalid, from a
// HEAD: an empty reader when Start is within the object (or at its end),
// else [apperr.BadRequest].
func (s *Store) emptyRange(ctx context.Context, key string, rng *blob.Range) (io.ReadCloser, blob.Info, error) {
	info, err := s.stat(ctx, key)
	if err != nil {
		return nil, blob.Info{}, err
	}
	if rng.Start < 0 || rng.Start > info.Size || rng.Length < -1 {
		return nil, blob.Info{}, apperr.New(apperr.BadRequest, "range %d+%d is outside the object's %d bytes", rng.Start, rng.Length, info.Size).
			WithDetail("size", info.Size)
	}
	return io.NopCloser(strings.NewReader("")), info, nil
}

// stat returns the Info of key's object. Errors: those of [Store.Get].
func (s *Store) stat(ctx context.Context, key string) (blob.Info, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return blob.Info{}, s.getFailed(ctx, key, err)
	}
	return blob.Info{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: etag(out.ETag), ModTime: modTime(aws.ToTime(out.LastModified))}, nil
}

// getFailed is [Store.fail] with a missing object as [apperr.NotFound].
func (s *Store) getFailed(ctx context.Context, key string, err error) error {
	if resp, ok := answerOf(err); ok && resp.status == http.StatusNotFound && resp.code != "NoSuchBucket" {
		return apperr.New(apperr.NotFound, "blob not found").Wrap(err)
	}
	return s.fail(ctx, "get", key, err)
}

// totalSize reads the object's length from a Content-Range header,
// "bytes FIRST-LAST/TOTAL".
func totalSize(contentRange string) (int64, error) {
	_, total, ok := strings.Cut(contentRange, "/")
	n, err := strconv.ParseInt(total, 10, 64)
	if !ok || err != nil || n < 0 {
		return 0, fmt.Errorf("the store answered a range with Content-Range %q", contentRange)
	}
	return n, nil
}
