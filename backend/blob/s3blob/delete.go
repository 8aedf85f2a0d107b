package s3blob

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/blob"
)

// Delete removes the object; S3 answers a delete of a missing object as
// a success, so deleting one is not an error. Errors: [apperr.BadRequest]
// for an invalid key; ctx's error when it is done; [apperr.Unavailable]
// (details "retryAfterSeconds") when the store cannot be reached.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return s.fail(ctx, "delete", key, err)
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}); err != nil {
		return s.fail(ctx, "delete", key, err)
	}
	return nil
}
