package fsblob_test

import (
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/blobtest"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
)

func TestConformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) blob.Store {
		s, err := fsblob.Open(filepath.Join(t.TempDir(), "blobs"), fsblob.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
