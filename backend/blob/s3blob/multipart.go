package s3blob

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// firstRead is how much of an unknown-size content is read before the
// part buffer is allocated: a small content then costs a small buffer.
const firstRead = 1 << 20

// abortTimeout bounds the abort of a failed multipart upload, which runs
// even when the put's context is over.
const abortTimeout = 30 * time.Second

// putParts sends a content of unknown size, or over maxSinglePut, as a
// multipart upload, one part in memory at a time (a part in a buffer can
// be retried; a streamed body cannot). A content that turns out to fit in
// one part goes up as one PUT. A failed upload is aborted, so its parts
// do not stay behind.
func (s *Store) putParts(ctx context.Context, key string, sr *sizedReader, size int64) (*string, error) {
	psize := s.partSize
	if size > 0 {
		psize = max(psize, (size+maxParts-1)/maxParts)
	}
	buf := make([]byte, min(psize, firstRead))
	k, err := io.ReadFull(sr, buf)
	if err == nil && int64(len(buf)) < psize {
		whole := make([]byte, psize)
		copy(whole, buf)
		var more int
		more, err = io.ReadFull(sr, whole[k:])
		buf, k = whole, k+more
	}
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		out, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &key,
			Body: bytes.NewReader(buf[:k]), ContentLength: aws.Int64(int64(k))})
		if err != nil {
			return nil, err
		}
		return out.ETag, nil
	default:
		return nil, err
	}
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return nil, err
	}
	completed := false
	defer func() {
		if completed {
			return
		}
		// Abort even when ctx is over (the client went away): the parts
		// would otherwise stay, unseen and billed, until a lifecycle rule
		// removes them.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
		defer cancel()
		_, _ = s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &key, UploadId: up.UploadId})
	}()
	var parts []types.CompletedPart
	last := false
	for num := int32(1); ; num++ {
		if num > maxParts {
			return nil, fmt.Errorf("the content has more than %d parts of %d bytes; give its size", maxParts, psize)
		}
		p, err := s.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &s.bucket, Key: &key, UploadId: up.UploadId,
			PartNumber: aws.Int32(num), Body: bytes.NewReader(buf[:k]), ContentLength: aws.Int64(int64(k))})
		if err != nil {
			return nil, err
		}
		parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(num), ETag: p.ETag})
		if last {
			break
		}
		k, err = io.ReadFull(sr, buf)
		if err == io.EOF {
			break
		}
		if err == io.ErrUnexpectedEOF {
			last = true
		} else if err != nil {
			return nil, err
		}
	}
	out, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &s.bucket, Key: &key,
		UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
	if err != nil {
		return nil, err
	}
	completed = true
	return out.ETag, nil
}
