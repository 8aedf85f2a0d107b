package s3test_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"

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
		if _, err := c.PutObject(ctx, first.Bucket, "a/b", strings.NewReader("x"), 1, minio.PutObjectOptions{}); err != nil {
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
	if ok, err := c.BucketExists(ctx, first.Bucket); err != nil || ok {
		t.Errorf("first bucket after its test: exists %v, %v; want removed", ok, err)
	}
	n := 0
	for obj := range c.ListObjectsIter(ctx, second.Bucket, minio.ListObjectsOptions{Recursive: true}) {
		if obj.Err != nil {
			t.Fatal(obj.Err)
		}
		n++
	}
	if n != 0 {
		t.Errorf("new bucket holds %d objects", n)
	}
	u, err := url.Parse(second.URL())
	if err != nil || u.Scheme != "s3" || u.Host != second.Bucket || u.Query().Get("endpoint") != second.Endpoint {
		t.Errorf("URL() = %q (%v)", second.URL(), err)
	}
}
