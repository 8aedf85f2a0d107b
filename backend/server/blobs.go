package server

import (
	"fmt"
	"path/filepath"

	"github.com/captionqa/captionqa/backend/blob/fsblob"
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
