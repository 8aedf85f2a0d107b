package s3blob

import (
	"context"
	"mime"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

var _ blob.Presigner = (*Store)(nil)

// maxPresign is the longest a presigned URL may live: SigV4's limit.
const maxPresign = 7 * 24 * time.Hour

// PresignGet returns a URL that GETs key's object straight from the store
// (ranges included) until expires has passed, answered with
// Content-Disposition: attachment and downloadName as the file name, as
// the node's own download links are; an empty downloadName leaves the
// header out. The URL carries a signature, never the secret. It first
// checks with a HEAD that the object exists, so a link to missing bytes
// fails here rather than at the client. Errors: [apperr.BadRequest] for an
// invalid key or expires outside 1 s to 7 days; [apperr.NotFound] when
// there is no object; ctx's error when it is done; [apperr.Unavailable]
// (details "retryAfterSeconds") when the store cannot be reached.
func (s *Store) PresignGet(ctx context.Context, key string, expires time.Duration, downloadName string) (string, error) {
	if err := blob.CheckKey(key); err != nil {
		return "", err
	}
	if expires < time.Second || expires > maxPresign {
		return "", apperr.New(apperr.BadRequest, "a presigned link lives 1 second to 7 days, not %v", expires)
	}
	if _, err := s.stat(ctx, key); err != nil {
		return "", err
	}
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &key}
	if downloadName != "" {
		in.ResponseContentDisposition = aws.String(mime.FormatMediaType("attachment", map[string]string{"filename": downloadName}))
	}
	req, err := s3.NewPresignClient(s.client).PresignGetObject(ctx, in, s3.WithPresignExpires(expires))
	if err != nil {
		return "", s.fail(ctx, "presign", key, err)
	}
	return req.URL, nil
}

// PresignPut returns a URL that stores the body of a PUT as key's object
// (replacing any there) until expires has passed. The signature covers
// Content-Length: size, so the PUT must declare exactly size bytes (a
// chunked PUT, or one of another length, is refused by the store with 403):
// whoever holds the URL cannot store more than the caller meant. SigV4, as
// the SDK signs, covers no Content-Length of 0, which would leave an empty
// object's URL open to any body: an empty object has no presigned PUT. The
// store's answer carries the object's ETag, the one [Store.List] and
// [Store.Get] give. The URL carries a signature, never the secret; making
// it sends no request. Errors: [apperr.BadRequest] for an invalid key, a
// size outside 1 byte to 5 GiB (one PUT's limit) or expires outside 1 s to
// 7 days; else only the SDK's failure to sign, wrapped.
func (s *Store) PresignPut(ctx context.Context, key string, size int64, expires time.Duration) (string, error) {
	if err := blob.CheckKey(key); err != nil {
		return "", err
	}
	if size < 1 || size > maxSinglePut {
		return "", apperr.New(apperr.BadRequest, "a presigned PUT holds 1 to %d bytes, not %d", int64(maxSinglePut), size)
	}
	if expires < time.Second || expires > maxPresign {
		return "", apperr.New(apperr.BadRequest, "a presigned link lives 1 second to 7 days, not %v", expires)
	}
	in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &key, ContentLength: aws.Int64(size)}
	req, err := s3.NewPresignClient(s.client).PresignPutObject(ctx, in, s3.WithPresignExpires(expires))
	if err != nil {
		return "", s.fail(ctx, "presign", key, err)
	}
	return req.URL, nil
}
