package fsblob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

// Get opens the object, or rng's bytes of it; Info describes the whole
// object (Size is its full length). A range whose Length runs past the
// end is cut at the end. The file stays readable after a concurrent
// Delete or Put (the reader holds the old file open). Errors:
// [apperr.BadRequest] for an invalid key or a range outside the object
// (Start below 0 or past the end, Length below -1); [apperr.NotFound]
// when there is no object; ctx's error when it is done.
func (s *Store) Get(ctx context.Context, key string, rng *blob.Range) (io.ReadCloser, blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return nil, blob.Info{}, err
	}
	if err := ctxErr(ctx, "get", key); err != nil {
		return nil, blob.Info{}, err
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		if isMissing(err) {
			return nil, blob.Info{}, apperr.New(apperr.NotFound, "blob not found").Wrap(err)
		}
		return nil, blob.Info{}, fmt.Errorf("fsblob: get %s: %w", key, err)
	}
	info, err := s.stat(f, key)
	if err != nil {
		f.Close()
		return nil, blob.Info{}, err
	}
	start, length := int64(0), info.Size
	if rng != nil {
		if rng.Start < 0 || rng.Start > info.Size || rng.Length < -1 {
			f.Close()
			return nil, blob.Info{}, apperr.New(apperr.BadRequest, "range %d+%d is outside the object's %d bytes", rng.Start, rng.Length, info.Size).
				WithDetail("size", info.Size)
		}
		start = rng.Start
		length = info.Size - start
		if rng.Length >= 0 && rng.Length < length {
			length = rng.Length
		}
	}
	return &section{SectionReader: io.NewSectionReader(f, int64(headerSize)+start, length), f: f}, info, nil
}

// stat returns the Info of an open object file.
func (s *Store) stat(f *os.File, key string) (blob.Info, error) {
	st, err := f.Stat()
	if err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: get %s: %w", key, err)
	}
	if st.IsDir() {
		return blob.Info{}, apperr.New(apperr.NotFound, "blob not found")
	}
	tag, err := readHeader(f)
	if err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: get %s: %w", key, err)
	}
	return blob.Info{Key: key, Size: st.Size() - int64(headerSize), ETag: tag, ModTime: st.ModTime()}, nil
}

// section is a range of an open file that closes the file.
type section struct {
	*io.SectionReader
	f *os.File
}

func (s *section) Close() error { return s.f.Close() }

// isMissing reports whether err means no file is there: none, or a path
// through an object where a folder was expected ("a/b" when "a" is one).
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
