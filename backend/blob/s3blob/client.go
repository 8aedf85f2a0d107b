package s3blob

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// maxRetries bounds the client's attempts at one request (it backs off up
// to 0.2 s, then up to 0.4 s, at random so that nodes do not retry in
// step): enough to ride out a dropped connection, few enough that an
// unreachable store answers 503 within about a second.
const maxRetries = 3

// clientOptions configure the SDK's client for cfg, signed with opts'
// credentials. Region is "" when the URL gave none (see askRegion).
func clientOptions(cfg config, opts Options) s3.Options {
	creds := aws.Credentials{AccessKeyID: opts.AccessKey, SecretAccessKey: opts.SecretKey,
		SessionToken: opts.SessionToken, Source: "s3blob.Options"}
	o := s3.Options{
		Region:       cfg.region,
		UsePathStyle: cfg.pathStyle,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return creds, nil
		}),
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = maxRetries
			o.BaseDelay = 200 * time.Millisecond
			o.MaxBackoff = time.Second
			// The SDK's default also stops retrying once too many retries
			// failed, answering with an error of its own; an outage is
			// then told apart from an answer by the error's cause, which
			// must stay the store's.
			o.RateLimiter = ratelimit.None
		}),
		// Checksums only where S3 requires them: for a put, the SDK's
		// default computes one before sending over plain HTTP, reading
		// the body twice, which a streamed put's cannot be (put.go).
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}
	if cfg.custom {
		// Without it the SDK derives AWS's endpoint from the region.
		o.BaseEndpoint = aws.String(cfg.endpoint.String())
	}
	return o
}
