// Package fsblob is the filesystem adapter of [blob.Store]: objects are
// files under a root folder in the data folder (DATA/blobs), one file a
// key, the key's segments being the path's. It is the only code that
// knows an object is a local file; an S3 adapter replaces it on
// scale-out, so it offers nothing S3 lacks.
//
// Each file starts with a 40-byte header (a magic string and the
// content's SHA-256), written before the rename that publishes it, so an
// object and its ETag appear together or not at all without a second file
// or a lock. A put streams to a temporary file in ROOT/.tmp, syncs it and
// renames it over the key: readers see the old object or the new one,
// never part of either, and a crash leaves only a temporary file, which
// [Open] removes once it is an hour old. Files are 0600, folders 0700.
//
// One limit S3 does not have: a key cannot also be a folder of another
// key ("a" and "a/b"); such a put fails with [apperr.Conflict]. Our keys
// never do this.
package fsblob

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
)

var _ blob.Store = (*Store)(nil)

// Modes of what the store creates: private to the user, like the rest of
// the data folder.
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// tmpDir is the folder of temporary files inside the root. Its name
// starts with a dot, which no key segment may, so it is never a key.
const tmpDir = ".tmp"

// staleTemp is the age after which [Open] removes a temporary file: a put
// that old died with its process.
const staleTemp = time.Hour

// Options configure [Open].
type Options struct {
	// Now returns the current time; default time.Now. It only decides
	// which temporary files are stale: ModTime is the file system's.
	Now func() time.Time
}

// Store keeps objects under a root folder. It is safe for concurrent use,
// also by several processes on the same folder.
type Store struct {
	root string
	now  func() time.Time
}

// Open returns the store rooted at dir, creating the folder (0700) if
// needed, and removes temporary files left by puts that died over an hour
// ago.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, fmt.Errorf("fsblob: open: empty folder")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("fsblob: open %s: %w", dir, err)
	}
	s := &Store{root: abs, now: opts.Now}
	if s.now == nil {
		s.now = time.Now
	}
	if err := os.MkdirAll(filepath.Join(abs, tmpDir), dirMode); err != nil {
		return nil, fmt.Errorf("fsblob: open %s: %w", dir, err)
	}
	if err := s.removeStaleTemps(); err != nil {
		return nil, err
	}
	return s, nil
}

// Root returns the store's folder.
func (s *Store) Root() string { return s.root }

func (s *Store) removeStaleTemps() error {
	dir := filepath.Join(s.root, tmpDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("fsblob: read %s: %w", dir, err)
	}
	cutoff := s.now().Add(-staleTemp)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(cutoff) {
			continue
		}
		// Another process may remove it first; that is fine.
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
	return nil
}

// path returns the file of a valid key.
func (s *Store) path(key string) string {
	return filepath.Join(s.root, filepath.FromSlash(key))
}

// ctxErr returns ctx's error, wrapped, if it is done.
func ctxErr(ctx context.Context, op, key string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsblob: %s %s: %w", op, key, err)
	}
	return nil
}
