package s3blob

import (
	"context"
	"iter"

	"github.com/minio/minio-go/v7"

	"github.com/captionqa/captionqa/backend/blob"
)

// List yields the objects whose keys start with prefix, in key order (S3
// lists in byte order of the whole key), a page of up to 1,000 keys per
// request. Objects put or deleted during the listing may or may not
// appear; keys that are not ours (put by another tool) are skipped. It
// yields one error and stops: [apperr.BadRequest] for a prefix no key
// could start with, ctx's error when it is done, [apperr.Unavailable]
// (details "retryAfterSeconds") when the store cannot be reached.
func (s *Store) List(ctx context.Context, prefix string) iter.Seq2[blob.Info, error] {
	return func(yield func(blob.Info, error) bool) {
		if err := blob.CheckPrefix(prefix); err != nil {
			yield(blob.Info{}, err)
			return
		}
		if err := ctx.Err(); err != nil {
			yield(blob.Info{}, s.fail(ctx, "list", prefix, err))
			return
		}
		opts := minio.ListObjectsOptions{Prefix: prefix, Recursive: true}
		for obj := range s.core.ListObjectsIter(ctx, s.bucket, opts) {
			if obj.Err != nil {
				yield(blob.Info{}, s.fail(ctx, "list", prefix, obj.Err))
				return
			}
			if blob.CheckKey(obj.Key) != nil {
				continue
			}
			if !yield(blob.Info{Key: obj.Key, Size: obj.Size, ETag: etag(obj.ETag), ModTime: modTime(obj.LastModified)}, nil) {
				return
			}
		}
	}
}
