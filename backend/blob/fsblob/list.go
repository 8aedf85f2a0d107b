package fsblob

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/blob"
)

// List yields the objects whose keys start with prefix, in key order
// (byte order of the whole key, as S3 lists: "a-c" before "a/b"), reading
// one folder at a time. Objects put or deleted during the listing may or
// may not appear. It yields one error and stops: [apperr.BadRequest] for
// a prefix no key could start with, ctx's error when it is done, or a
// read failure.
func (s *Store) List(ctx context.Context, prefix string) iter.Seq2[blob.Info, error] {
	return func(yield func(blob.Info, error) bool) {
		if err := blob.CheckPrefix(prefix); err != nil {
			yield(blob.Info{}, err)
			return
		}
		if _, err := s.walk(ctx, "", prefix, yield); err != nil {
			yield(blob.Info{}, err)
		}
	}
}

// walk lists the folder of key prefix dir ("" or "a/b/") in key order,
// descending only into folders that may hold keys starting with prefix.
// It returns false when yield asked to stop.
func (s *Store) walk(ctx context.Context, dir, prefix string, yield func(blob.Info, error) bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("fsblob: list %s: %w", prefix, err)
	}
	entries, err := os.ReadDir(filepath.Join(s.root, filepath.FromSlash(dir)))
	if err != nil {
		if isMissing(err) {
			return true, nil // deleted while listing
		}
		return false, fmt.Errorf("fsblob: list %s: %w", prefix, err)
	}
	type item struct {
		key   string // the entry's key, with a trailing slash for a folder
		isDir bool
	}
	items := make([]item, 0, len(entries))
	for _, e := range entries {
		if blob.CheckKey(e.Name()) != nil { // .tmp and anything not ours
			continue
		}
		k := dir + e.Name()
		if e.IsDir() {
			k += "/"
		} else if !e.Type().IsRegular() {
			continue
		}
		// Descend into k when it starts with prefix or prefix with it.
		if !strings.HasPrefix(k, prefix) && !(e.IsDir() && strings.HasPrefix(prefix, k)) {
			continue
		}
		items = append(items, item{k, e.IsDir()})
	}
	// A folder sorts as its name plus "/", which puts "a-c" (0x2d) and
	// "a.c" (0x2e) before "a/…" (0x2f) as whole keys compare.
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.key, b.key) })
	for _, it := range items {
		if it.isDir {
			if more, err := s.walk(ctx, it.key, prefix, yield); !more || err != nil {
				return more, err
			}
			continue
		}
		info, err := s.info(it.key)
		if err != nil {
			if isMissing(err) {
				continue // deleted while listing
			}
			return false, err
		}
		if !yield(info, nil) {
			return false, nil
		}
	}
	return true, nil
}

// info reads the Info of the object file of key.
func (s *Store) info(key string) (blob.Info, error) {
	f, err := os.Open(s.path(key))
	if err != nil {
		return blob.Info{}, err
	}
	defer f.Close()
	return s.stat(f, key)
}
