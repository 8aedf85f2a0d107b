package s3blob

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	"github.com/minio/minio-go/v7"

	"github.com/captionqa/captionqa/backend/apperr"
)

// retryAfter is the details.retryAfterSeconds of an unreachable store: a
// store that refused us is seldom back within a second, and a longer wait
// spares it a storm of retries.
const retryAfter = 5

// fail classifies a failed request on key (or on the bucket when key is
// ""): ctx's error when ctx is done, whatever the client made of it;
// [apperr.Unavailable] with details.retryAfterSeconds when the store cannot
// be reached or says it is overloaded or failing (5xx, SlowDown); a plain
// error naming the cause when access is denied or the bucket is missing,
// which are configuration mistakes; else the error wrapped.
func (s *Store) fail(ctx context.Context, op, key string, err error) error {
	what := op
	if key != "" {
		what += " " + key
	}
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("s3blob: %s: %w", what, cerr)
	}
	var resp minio.ErrorResponse
	if errors.As(err, &resp) {
		switch {
		case resp.StatusCode == http.StatusForbidden, resp.Code == "XAdminUserNotFound":
			// versitygw answers an unknown access key 404 XAdminUserNotFound
			// where AWS answers 403 InvalidAccessKeyId.
			return fmt.Errorf("s3blob: %s: access denied to %s (%s): check the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and the bucket's policy: %w",
				what, s.where, resp.Code, err)
		case resp.Code == minio.NoSuchBucket:
			return fmt.Errorf("s3blob: %s: %s does not exist: %w", what, s.where, err)
		case resp.StatusCode >= 500, resp.StatusCode == http.StatusTooManyRequests, resp.Code == "SlowDown":
			return unavailable(fmt.Errorf("s3blob: %s: %s answers %d %s: %w", what, s.where, resp.StatusCode, resp.Code, err))
		}
		return fmt.Errorf("s3blob: %s: %w", what, err)
	}
	if unreachable(err) {
		return unavailable(fmt.Errorf("s3blob: %s: %s: %w", what, s.where, err))
	}
	return fmt.Errorf("s3blob: %s: %w", what, err)
}

// unreachable reports whether err is a failure to talk to the store at all
// (refused, reset, timed out, name not resolved), as opposed to an answer.
// A certificate the client refuses is a configuration mistake, not an
// outage.
func unreachable(err error) bool {
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return false
	}
	var ue *url.Error
	var oe *net.OpError
	return errors.As(err, &ue) || errors.As(err, &oe)
}

func unavailable(cause error) error {
	return apperr.New(apperr.Unavailable, "the object store cannot be reached; retry later").
		WithDetail("retryAfterSeconds", retryAfter).Wrap(cause)
}
