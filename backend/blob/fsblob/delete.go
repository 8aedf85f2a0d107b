package fsblob

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/captionqa/captionqa/backend/blob"
)

// Delete removes the object, then the folders it leaves empty (up to the
// root), so a swept prefix does not keep a tree of empty folders.
// Deleting a missing object is not an error. Errors:
// [apperr.BadRequest] for an invalid key; ctx's error when it is done.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	if err := ctxErr(ctx, "delete", key); err != nil {
		return err
	}
	p := s.path(key)
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		// A folder of other objects, not an object: nothing to delete.
		return nil
	}
	if err := os.Remove(p); err != nil && !isMissing(err) {
		return fmt.Errorf("fsblob: delete %s: %w", key, err)
	}
	// Best effort: os.Remove refuses a folder that is not empty, which is
	// how a concurrent Put into the same folder keeps it (Put retries if
	// it loses the race).
	for dir := filepath.Dir(p); dir != s.root && len(dir) > len(s.root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}
