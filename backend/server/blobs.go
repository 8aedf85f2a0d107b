package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/blob/s3blob"
)

// BlobsDir is the blob store's folder inside the data folder: media and
// artifacts, one file per object key (see package fsblob).
const BlobsDir = "blobs"

// openBlobs opens the filesystem blob store in dataDir/blobs, creating it
// private (0700; objects 0600) like the rest of the data folder.
func openBlobs(dataDir string, cfg *Config) (*fsblob.Store, error) {
	if dataDir == "" {
		return nil, fmt.Errorf("server: no data folder for the blob store")
	}
	s, err := fsblob.Open(filepath.Join(dataDir, BlobsDir), fsblob.Options{Now: cfg.Now})
	if err != nil {
		return nil, fmt.Errorf("server: open blob store: %w", err)
	}
	return s, nil
}

// openBlobURL opens the blob store a --blobs URL names: s3://BUCKET with
// endpoint, region, and presign (artifact links handed to clients as the
// store's presigned URLs rather than served through the node; off by
// default, for stores clients cannot reach) in the query; credentials
// come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
func openBlobURL(ctx context.Context, url string, cfg *Config) (*s3blob.Store, error) {
	if !strings.HasPrefix(url, "s3://") {
		return nil, fmt.Errorf("server: --blobs %q: give an s3://BUCKET?endpoint=URL&region=R URL, or leave it out for the data folder", redactURL(url))
	}
	s, err := s3blob.Open(ctx, url, s3blob.Options{Now: cfg.Now})
	if err != nil {
		return nil, fmt.Errorf("server: open blob store: %w", err)
	}
	return s, nil
}
