package fsblob

import (
	"context"
	"fmt"
	"os"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

var _ blob.Local = (*Store)(nil)

// LocalFile returns the file holding key's object and the offset its
// content starts at (after the header), for a subprocess that reads media
// in place: ffmpeg through its subfile protocol. Errors:
// [apperr.BadRequest] for an invalid key, [apperr.NotFound] when there is
// no object.
func (s *Store) LocalFile(ctx context.Context, key string) (string, int64, error) {
	if err := blob.CheckKey(key); err != nil {
		return "", 0, err
	}
	if err := ctxErr(ctx, "local file", key); err != nil {
		return "", 0, err
	}
	p := s.path(key)
	st, err := os.Stat(p)
	switch {
	case isMissing(err):
		return "", 0, apperr.New(apperr.NotFound, "blob not found").Wrap(err)
	case err != nil:
		return "", 0, fmt.Errorf("fsblob: local file %s: %w", key, err)
	case st.Size() < int64(headerSize):
		return "", 0, fmt.Errorf("fsblob: local file %s: %d bytes, shorter than the header", key, st.Size())
	}
	return p, int64(headerSize), nil
}
