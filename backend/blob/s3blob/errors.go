package s3blob

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

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
	if resp, ok := answerOf(err); ok {
		switch {
		case resp.status == http.StatusForbidden, resp.code == "XAdminUserNotFound":
			// versitygw answers an unknown access key 404 XAdminUserNotFound
			// where AWS answers 403 InvalidAccessKeyId.
			return fmt.Errorf("s3blob: %s: access denied to %s (%s): check the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and the bucket's policy: %w",
				what, s.where, resp.code, err)
		case resp.code == "NoSuchBucket":
			return fmt.Errorf("s3blob: %s: %s does not exist: %w", what, s.where, err)
		case resp.status >= 500, resp.status == http.StatusTooManyRequests, resp.code == "SlowDown":
			return unavailable(fmt.Errorf("s3blob: %s: %s answers %d %s: %w", what, s.where, resp.status, resp.code, err))
		}
		return fmt.Errorf("s3blob: %s: %w", what, err)
	}
	if unreachable(err) {
		return unavailable(fmt.Errorf("s3blob: %s: %s: %w", what, s.where, err))
	}
	return fmt.Errorf("s3blob: %s: %w", what, err)
}

// answer is what the store said to a request that failed.
type answer struct {
	status int // HTTP's
	// code is S3's error code, or the SDK's name for the status when the
	// answer has no body (a HEAD's).
	code   string
	header http.Header
}

// answerOf returns the store's answer carried by err, the SDK's error of
// a request; ok is false when the store did not answer (or err is not a
// request's).
func answerOf(err error) (a answer, ok bool) {
	// The SDK reports a request it could not send as a ResponseError too,
	// of status 0 and no response.
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.Response == nil || re.Response.Response == nil || re.HTTPStatusCode() == 0 {
		return answer{}, false
	}
	a = answer{status: re.HTTPStatusCode(), header: re.Response.Header}
	var api smithy.APIError
	if errors.As(err, &api) {
		a.code = api.ErrorCode()
	}
	return a, true
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
