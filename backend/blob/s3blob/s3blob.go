// Package s3blob is the S3 adapter of [blob.Store]: objects live in one
// bucket of an S3-compatible store (AWS, MinIO, versitygw, …), under the
// same keys as package fsblob's, so that several nodes running the same
// binary share media and artifacts. A store URL names the bucket and how
// to reach it; [Open] parses it and checks the bucket is there.
//
// A put streams: up to 5 GiB of known size go up as one PUT whose body is
// the caller's reader, so the node holds a few small buffers, never the
// object; a bigger or unknown-size content goes up as a multipart upload, one
// 16 MiB part (more for objects over 160 GiB) in memory at a time. S3
// publishes an object only once its upload completes, so a reader that
// fails, or gives more or fewer bytes than declared, leaves the old
// object or none, as package fsblob does. The one PUT's body ends with a
// checksum (chunked.go), so that a store which would keep a body cut short
// keeps nothing either.
//
// The client is the AWS SDK for Go v2's (client.go): its packages do
// little at init, which every start of the binary pays (captionqa version
// included), where minio-go's compiled regular expressions and probed the
// CPU.
//
// By default clients reach only the nodes, which move the bytes. When the
// URL says presign=true, upload parts go straight from the client to the
// store through presigned PUTs ([Store.PresignPut]) and downloads through
// presigned GETs ([Store.PresignGet]).
package s3blob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/blob"
)

var _ blob.Store = (*Store)(nil)

// Options configure [Open].
type Options struct {
	// AccessKey, SecretKey and SessionToken sign the requests. When
	// AccessKey is empty, all three come from the environment:
	// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.
	AccessKey, SecretKey, SessionToken string
	// Now returns the current time; default time.Now. It dates the Info
	// a Put returns: S3 answers a put without the object's time.
	Now func() time.Time
}

// Store keeps objects in one bucket. It is safe for concurrent use, also
// by several processes on several nodes.
type Store struct {
	client  *s3.Client
	bucket  string
	where   string // the bucket and its endpoint, for messages
	presign bool
	now     func() time.Time
	// Sizes deciding how a put goes up (see put.go); fields rather than
	// constants so that a test reaches the multipart path without 5 GiB.
	maxSinglePut, partSize int64
}

// Open returns the store of rawURL, s3://BUCKET with optional parameters
// endpoint=http(s)://HOST[:PORT] (default AWS), region=R (default: asked
// of the store, once, here), pathstyle=true|false (default: per-bucket host
// names on AWS, the bucket in the path on any other endpoint, which seldom
// has per-bucket host names) and presign=true|false (default false: see
// [Store.Presign]). It checks that the bucket exists and that the
// credentials may list it, with one request (two when it must ask the
// region). Errors: [apperr.Unavailable] (details "retryAfterSeconds") when
// the store cannot be reached; a plain error for a bad URL, missing
// credentials, a missing bucket or denied access, which are configuration
// mistakes.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	cfg, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	if opts.AccessKey == "" {
		opts.AccessKey = os.Getenv("AWS_ACCESS_KEY_ID")
		opts.SecretKey = os.Getenv("AWS_SECRET_ACCESS_KEY")
		opts.SessionToken = os.Getenv("AWS_SESSION_TOKEN")
	}
	if opts.AccessKey == "" || opts.SecretKey == "" {
		return nil, errors.New("s3blob: open: no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	s := &Store{
		bucket:       cfg.bucket,
		where:        fmt.Sprintf("bucket %s at %s", cfg.bucket, cfg.endpoint),
		presign:      cfg.presign,
		now:          opts.Now,
		maxSinglePut: maxSinglePut,
		partSize:     partSize,
	}
	if s.now == nil {
		s.now = time.Now
	}
	o := clientOptions(cfg, opts)
	if o.Region == "" {
		if o.Region, err = askRegion(ctx, o, cfg); err != nil {
			return nil, s.fail(ctx, "open", "", err)
		}
	}
	s.client = s3.New(o)
	// A listing of one key rather than a HEAD of the bucket: a HEAD's
	// answer has no body, so a 404 cannot tell a missing bucket from an
	// unknown access key (versitygw answers one so), and List needs the
	// permission to list anyway.
	_, err = s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &s.bucket, MaxKeys: aws.Int32(1)})
	if err != nil {
		return nil, s.fail(ctx, "open", "", err)
	}
	return s, nil
}

// Presign reports whether the URL asked for presigned URLs
// (presign=true): upload parts and artifact links should then come from
// [Store.PresignPut] and [Store.PresignGet] and reach the store directly,
// which must be reachable by the clients.
func (s *Store) Presign() bool { return s.presign }

// etag quotes an ETag as HTTP writes it. The SDK passes on what the store
// sent, quoted in headers and in most listings but not in every store's.
func etag(tag *string) string { return `"` + strings.Trim(aws.ToString(tag), `"`) + `"` }

// modTime is the form of every ModTime the store returns: UTC, whole
// seconds, as HTTP's Last-Modified gives it (a listing gives
// milliseconds), so that Get and List agree.
func modTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
