package fsblob

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

// copyBuf is the size of a put's copy buffer; the content is streamed, so
// this is all a put holds in memory.
const copyBuf = 256 << 10

// Put streams r into a temporary file, hashing it, then syncs the file and
// renames it over key, so a concurrent Get sees the old object or the new
// one; of two concurrent puts of one key the last rename wins, whole.
// Errors: [apperr.BadRequest] for an invalid key or when r gives more or
// fewer bytes than a known size (details "expectedBytes"); [apperr.Conflict]
// when key's folder is another object ("a" then "a/b"); ctx's error when
// it ends first; r's error wrapped. Nothing is left behind on failure.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, size int64) (blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return blob.Info{}, err
	}
	if err := ctxErr(ctx, "put", key); err != nil {
		return blob.Info{}, err
	}
	tmp, err := os.CreateTemp(filepath.Join(s.root, tmpDir), "put-*")
	if err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	published := false
	defer func() {
		if !published {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	// Room for the header, written once the checksum is known.
	if _, err := tmp.Write(make([]byte, headerSize)); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	h := sha256.New()
	n, err := s.copy(ctx, io.MultiWriter(tmp, h), r, size)
	if err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	if size >= 0 && n != size {
		return blob.Info{}, apperr.New(apperr.BadRequest, "blob %s: the content has %d bytes, not the %d declared", key, n, size).
			WithDetail("expectedBytes", size)
	}
	sum := h.Sum(nil)
	if _, err := tmp.WriteAt(header(sum), 0); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	if err := tmp.Chmod(fileMode); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	// Durable before visible: a crash after the rename must not leave a
	// renamed file whose blocks never reached the disk.
	if err := tmp.Sync(); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	if err := ctxErr(ctx, "put", key); err != nil {
		return blob.Info{}, err
	}
	dst := s.path(key)
	if err := s.publish(tmp.Name(), dst); err != nil {
		return blob.Info{}, fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	published = true
	info := blob.Info{Key: key, Size: n, ETag: etag(sum), ModTime: s.now()}
	if st, err := os.Stat(dst); err == nil {
		info.ModTime = st.ModTime()
	}
	return info, nil
}

// copy copies src to dst, checking ctx between chunks and reading at most
// one byte past a known size, so a reader that would give gigabytes more
// than declared is cut short.
func (s *Store) copy(ctx context.Context, dst io.Writer, src io.Reader, size int64) (int64, error) {
	if size >= 0 {
		src = io.LimitReader(src, size+1)
	}
	buf := make([]byte, copyBuf)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, rerr := src.Read(buf)
		if k > 0 {
			if _, err := dst.Write(buf[:k]); err != nil {
				return n, err
			}
			n += int64(k)
		}
		if errors.Is(rerr, io.EOF) {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// publish renames the finished temporary file to dst, creating dst's
// folders. A concurrent Delete may remove a folder it found empty between
// MkdirAll and Rename, or a parent while MkdirAll makes its child, so a
// missing folder is retried: each try needs a Delete to win the same
// narrow window again.
func (s *Store) publish(tmp, dst string) error {
	dir := filepath.Dir(dst)
	var err error
	for range 20 {
		if err = os.MkdirAll(dir, dirMode); err != nil {
			if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, os.ErrExist) {
				return apperr.New(apperr.Conflict, "blob key's folder is another object").Wrap(err)
			}
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return err
		}
		if err = os.Rename(tmp, dst); err == nil {
			return syncDir(dir)
		}
		if st, serr := os.Stat(dst); serr == nil && st.IsDir() {
			return apperr.New(apperr.Conflict, "blob key is a folder of other objects").Wrap(err)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return err
}

// syncDir makes a rename in dir durable. Windows cannot open a folder for
// sync; NTFS journals the rename.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}
