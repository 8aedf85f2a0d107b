package server

import (
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
)

// Modes of the data folder's contents: private to the user running
// CaptionQA, since they hold key hashes, sessions, account data and the
// per-install secret.
const (
	privateDirMode  fs.FileMode = 0o700
	privateFileMode fs.FileMode = 0o600
)

// privateDataDir creates dir if needed and makes it private before the
// database opens: dir and every folder in it 0700, every regular file
// 0600 (symbolic links are left alone: chmod would change their target),
// and the database file created 0600 if missing, because SQLite gives the
// -wal and -shm files it creates the database file's mode (the umask's
// 0644 otherwise). It logs what it changed, in one line. On Windows,
// where access is ACLs rather than mode bits, it only creates dir.
func privateDataDir(dir string, log *slog.Logger) error {
	if err := os.MkdirAll(dir, privateDirMode); err != nil {
		return fmt.Errorf("server: data folder: %w", err)
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	// A data folder reached through a symbolic link is still the folder
	// to fix: walk its target.
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("server: data folder: %w", err)
	}
	var fixed []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		want := privateFileMode
		switch {
		case d.IsDir():
			want = privateDirMode
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if got := info.Mode().Perm(); got != want {
			if err := os.Chmod(path, want); err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			fixed = append(fixed, fmt.Sprintf("%s was %04o", rel, got))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("server: making the data folder private: %w", err)
	}
	if len(fixed) > 0 {
		log.Warn("made the data folder private to this user: folders 0700, files 0600", "folder", dir, "fixed", fixed)
	}
	f, err := os.OpenFile(filepath.Join(dir, DBFile), os.O_RDWR|os.O_CREATE, privateFileMode)
	if err != nil {
		return fmt.Errorf("server: database file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("server: database file: %w", err)
	}
	return nil
}
