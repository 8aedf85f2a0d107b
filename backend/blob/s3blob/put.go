package s3blob

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

// How a put goes up. S3 takes up to 5 GiB in one PUT and up to 10,000
// parts in a multipart upload; a part is held in memory while it goes up
// (so that a failed part can be sent again), which is what partSize
// costs. 16 MiB parts take an unknown-size content up to 160 GiB.
const (
	maxSinglePut = 5 << 30
	partSize     = 16 << 20
	maxParts     = 10_000
)

// Put stores r's bytes under key. A known size up to 5 GiB goes up as one
// streamed PUT; anything else as a multipart upload (see the package
// comment). S3 replaces the object only once the upload completes: a
// concurrent Get sees the old object or the new one, and of two
// concurrent puts of one key one wins, whole. The Info's ModTime is
// Options.Now at the end of the put: S3's answer carries no object time
// (Get and List give the store's).
// Errors: [apperr.BadRequest] for an invalid key or when r gives more or
// fewer bytes than a known size (details "expectedBytes"); ctx's error
// when it ends first; r's error wrapped; [apperr.Unavailable] (details
// "retryAfterSeconds") when the store cannot be reached. Nothing is left
// behind on failure.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, size int64) (blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, s.fail(ctx, "put", key, err)
	}
	sr := &sizedReader{r: r, size: size}
	var tag *string
	var err error
	if size >= 0 && size <= s.maxSinglePut {
		tag, err = s.putSingle(ctx, key, sr, size)
	} else {
		tag, err = s.putParts(ctx, key, sr, size)
	}
	// The transport may still hold the body: after stop it reads no more
	// of r, which is the caller's again once Put returns.
	n, rerr := sr.stop()
	if err != nil {
		return blob.Info{}, s.putFailed(ctx, key, size, n, rerr, err)
	}
	return blob.Info{Key: key, Size: n, ETag: etag(tag), ModTime: modTime(s.now())}, nil
}

// putSingle sends the content as one PUT whose body streams from sr,
// aws-chunked (see chunked.go). The body is read once, as it goes, so a
// failed attempt is not retried.
func (s *Store) putSingle(ctx context.Context, key string, sr *sizedReader, size int64) (*string, error) {
	in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &key, ContentLength: aws.Int64(0)}
	var opts []func(*s3.Options)
	if size == 0 {
		// The client sends no body for an empty object and so never reads
		// sr: check here that r has nothing either.
		if err := sr.end(); err != io.EOF {
			return nil, err
		}
	} else {
		var n int64
		in.Body, n = chunked(sr, size)
		in.ContentLength, in.ContentEncoding = aws.Int64(n), aws.String("aws-chunked")
		opts = append(opts, s3.WithAPIOptions(chunkedHeaders(size)...), func(o *s3.Options) { o.RetryMaxAttempts = 1 })
	}
	out, err := s.client.PutObject(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return out.ETag, nil
}

// putFailed explains a failed put: r's failure first (a length that does
// not match, or r's own error, which the transport reports as its own),
// then ctx's, then the store's.
func (s *Store) putFailed(ctx context.Context, key string, size, n int64, rerr, err error) error {
	switch {
	case rerr == errShort:
		return apperr.New(apperr.BadRequest, "blob %s: the content has %d bytes, not the %d declared", key, n, size).
			WithDetail("expectedBytes", size)
	case rerr == errLong:
		return apperr.New(apperr.BadRequest, "blob %s: the content has more than the %d bytes declared", key, size).
			WithDetail("expectedBytes", size)
	case rerr != nil && rerr != errStopped:
		// Classified too: a reader that reads another object of the store
		// (media parts) fails when the store does.
		return s.fail(ctx, "put", key, fmt.Errorf("reading the content: %w", rerr))
	}
	return s.fail(ctx, "put", key, err)
}
