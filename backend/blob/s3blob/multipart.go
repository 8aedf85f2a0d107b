package s3blob

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/minio/minio-go/v7"
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
func (s *Store) putParts(ctx context.Context, key string, sr *sizedReader, size int64) (string, error) {
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
		info, err := s.core.PutObject(ctx, s.bucket, key, bytes.NewReader(buf[:k]), int64(k), "", "", minio.PutObjectOptions{})
		return info.ETag, err
	default:
		return "", err
	}
	id, err := s.core.NewMultipartUpload(ctx, s.bucket, key, minio.PutObjectOptions{})
	if err != nil {
		return "", err
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
		_ = s.core.AbortMultipartUpload(actx, s.bucket, key, id)
	}()
	var parts []minio.CompletePart
	last := false
	for num := 1; ; num++ {
		if num > maxParts {
			return "", fmt.Errorf("the content has more than %d parts of %d bytes; give its size", maxParts, psize)
		}
		p, err := s.core.PutObjectPart(ctx, s.bucket, key, id, num, bytes.NewReader(buf[:k]), int64(k), minio.PutObjectPartOptions{})
		if err != nil {
			return "", err
		}
		parts = append(parts, minio.CompletePart{PartNumber: num, ETag: p.ETag})
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
			return "", err
		}
	}
	info, err := s.core.CompleteMultipartUpload(ctx, s.bucket, key, id, parts, minio.PutObjectOptions{})
	if err != nil {
		return "", err
	}
	completed = true
	return info.ETag, nil
}
