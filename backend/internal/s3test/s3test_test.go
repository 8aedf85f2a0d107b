package s3test_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// TestBucket checks that each test gets a bucket of its own, empty and
// writable, and that it is gone once the test ends.
func TestBucket(t *testing.T) {
	ctx := context.Background()
	var first s3test.Target
	t.Run("first", func(t *testing.T) {
		first = s3test.Bucket(t)
		c, err := s3test.Client(first)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &first.Bucket, Key: aws.String("a/b"), Body: strings.NewReader("x")}); err != nil {
			t.Fatalf("put: %v", err)
		}
	})
	second := s3test.Bucket(t)
	if second.Bucket == first.Bucket || second.Endpoint != first.Endpoint {
		t.Fatalf("buckets %+v and %+v: want two buckets on one server", first, second)
	}
	c, err := s3test.Client(second)
	if err != nil {
		t.Fatal(err)
	}
	// A HEAD of a bucket that is not there answers 404, NotFound.
	_, err = c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &first.Bucket})
	var missing *types.NotFound
	if ok := err == nil; ok || !errors.As(err, &missing) {
		t.Errorf("first bucket after its test: exists %v, %v; want removed", ok, err)
	}
	n := 0
	for pages := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: &second.Bucket}); pages.HasMorePages(); {
		page, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Contents)
	}
	if n != 0 {
		t.Errorf("new bucket holds %d objects", n)
	}
	u, err := url.Parse(second.URL())
	if err != nil || u.Scheme != "s3" || u.Host != second.Bucket || u.Query().Get("endpoint") != second.Endpoint {
		t.Errorf("URL() = %q (%v)", second.URL(), err)
	}
}
