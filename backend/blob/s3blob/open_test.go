package s3blob_test

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob/s3blob"
	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// TestOpenURL checks that a URL the store cannot use fails at Open with
// an error naming what is wrong, before any request.
func TestOpenURL(t *testing.T) {
	t.Parallel()
	creds := s3blob.Options{AccessKey: "k", SecretKey: "s"}
	for _, tc := range []struct {
		url, want string
	}{
		{"http://bucket", `scheme "http"`},
		{"bucket", `scheme ""`},
		{"s3://", "names no bucket"},
		{"s3:///key", "names no bucket"},
		{"s3://Bad_Bucket", `bucket "Bad_Bucket"`},
		{"s3://bucket/prefix", "key prefix is not supported"},
		{"s3://key:secret@bucket", "credentials do not belong in the URL"},
		{"s3://bucket?endpoint=ftp://host", `endpoint="ftp://host"`},
		{"s3://bucket?endpoint=http://", `endpoint="http://"`},
		{"s3://bucket?endpoint=localhost:9000", `endpoint="localhost:9000"`},
		{"s3://bucket?endpoint=http://host/path", `endpoint="http://host/path"`},
		{"s3://bucket?endpoint=http://key:secret@host", "credentials do not belong in the URL"},
		{"s3://bucket?presign=maybe", `presign="maybe"`},
		{"s3://bucket?pathstyle=yes", `pathstyle="yes"`},
		{"s3://bucket?regoin=eu-west-1", `parameter "regoin" unknown`},
		{"s3://bucket\x7f", "does not parse"},
	} {
		_, err := s3blob.Open(context.Background(), tc.url, creds)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%q) = %v, want an error containing %q", tc.url, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") && !strings.Contains(err.Error(), "AWS_SECRET_ACCESS_KEY") {
			t.Errorf("Open(%q) = %v: the error repeats the credentials", tc.url, err)
		}
	}
}

// TestOpenChecksTheBucket opens real buckets: credentials from the options
// or the environment, presign from the URL; a missing bucket, denied
// access or no credentials fail with an error saying so.
func TestOpenChecksTheBucket(t *testing.T) {
	ctx := context.Background()
	tg := s3test.Bucket(t)
	own := s3blob.Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey}
	for _, tc := range []struct {
		name    string
		url     string
		opts    s3blob.Options
		env     [2]string // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
		presign bool
		want    string // in the error; "" for success
	}{
		{"options", tg.URL(), own, [2]string{}, false, ""},
		{"presign", tg.URL() + "&presign=true", own, [2]string{}, true, ""},
		{"environment", tg.URL(), s3blob.Options{}, [2]string{tg.AccessKey, tg.SecretKey}, false, ""},
		{"no credentials", tg.URL(), s3blob.Options{}, [2]string{}, false, "no credentials: set AWS_ACCESS_KEY_ID"},
		{"wrong secret", tg.URL(), s3blob.Options{AccessKey: tg.AccessKey, SecretKey: "wrong"}, [2]string{}, false, "access denied to bucket " + tg.Bucket},
		{"unknown key", tg.URL(), s3blob.Options{AccessKey: "nobody", SecretKey: "wrong"}, [2]string{}, false, "access denied"},
		{"missing bucket", strings.Replace(tg.URL(), tg.Bucket, "no-such-bucket", 1), own, [2]string{}, false, "bucket no-such-bucket at " + tg.Endpoint + " does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("AWS_ACCESS_KEY_ID", tc.env[0])
			t.Setenv("AWS_SECRET_ACCESS_KEY", tc.env[1])
			t.Setenv("AWS_SESSION_TOKEN", "")
			s, err := s3blob.Open(ctx, tc.url, tc.opts)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Open = %v, want an error containing %q", err, tc.want)
				}
				if apperr.KindOf(err) != apperr.Internal {
					t.Errorf("Open = %v: a configuration mistake is not %s", err, apperr.KindOf(err).Code())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Presign() != tc.presign {
				t.Errorf("Presign() = %v, want %v", s.Presign(), tc.presign)
			}
			if _, err := s.Put(ctx, "k", strings.NewReader("x"), 1); err != nil {
				t.Errorf("put: %v", err)
			}
		})
	}
}

// TestOpenDefaults opens a bucket from a URL that gives only the endpoint:
// the region comes from the store, and a store that is not AWS is reached
// with the bucket in the path.
func TestOpenDefaults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tg := s3test.Bucket(t)
	s, err := s3blob.Open(ctx, "s3://"+tg.Bucket+"?endpoint="+tg.Endpoint, s3blob.Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "k", strings.NewReader("x"), 1); err != nil {
		t.Errorf("put: %v", err)
	}
}
