package s3blob_test

import (
	"context"
	"testing"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/blobtest"
	"github.com/captionqa/captionqa/backend/blob/s3blob"
	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// open returns a store on a new bucket of the test server.
func open(t *testing.T) (*s3blob.Store, s3test.Target) {
	t.Helper()
	tg := s3test.Bucket(t)
	s, err := s3blob.Open(context.Background(), tg.URL(), s3blob.Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	return s, tg
}

func TestConformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) blob.Store {
		s, _ := open(t)
		return s
	})
}
