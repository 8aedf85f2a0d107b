package s3blob

import (
	"context"
	"iter"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

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
		// Keys come URL-encoded (encoding-type=url) when the store can:
		// XML 1.0 cannot carry every byte a key of another tool may hold.
		pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix, EncodingType: types.EncodingTypeUrl})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				yield(blob.Info{}, s.fail(ctx, "list", prefix, err))
				return
			}
			for _, obj := range page.Contents {
				key := aws.ToString(obj.Key)
				if page.EncodingType == types.EncodingTypeUrl {
					if key, err = url.QueryUnescape(key); err != nil {
						continue // a key the store did not encode well: not ours
					}
				}
				if blob.CheckKey(key) != nil {
					continue
				}
				info := blob.Info{Key: key, Size: aws.ToInt64(obj.Size), ETag: etag(obj.ETag), ModTime: modTime(aws.ToTime(obj.LastModified))}
				if !yield(info, nil) {
					return
				}
			}
		}
	}
}
