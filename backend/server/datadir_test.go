package server_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/server"
)

// TestDataDirMadePrivate: whether the data folder is new, or exists with
// the umask's modes (0755 folders, 0644 files, as a first version of
// CaptionQA or an operator's mkdir left it), every start leaves the
// folder 0700 and every file in it 0600, including the -wal and -shm
// files SQLite creates after a write, and logs what it changed.
func TestDataDirMadePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows guards files with ACLs, not mode bits")
	}
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		// wantFixed are files the log must name as fixed.
		wantFixed []string
	}{
		{"new folder", func(*testing.T, string) {}, nil},
		{"empty folder 0755", func(t *testing.T, dir string) { mkdir(t, dir, 0o755) }, []string{". was 0755"}},
		{"folder and files 0644 from before", func(t *testing.T, dir string) {
			mkdir(t, dir, 0o755)
			for _, name := range []string{server.DBFile, server.DBFile + "-wal", server.DBFile + "-shm", "notes.txt"} {
				writeFile(t, filepath.Join(dir, name), 0o644)
			}
			mkdir(t, filepath.Join(dir, "media"), 0o755)
			writeFile(t, filepath.Join(dir, "media", "upload.bin"), 0o666)
		}, []string{". was 0755", server.DBFile + " was 0644", "notes.txt was 0644", "media was 0755", "upload.bin was 0666"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "data")
			tt.setup(t, dir)
			cfg := testConfig(t, dir)
			logs := withLog(&cfg)
			srv := server.New(cfg)
			// Open writes (the owner account), so SQLite has made its
			// -wal and -shm files by now; they live until Close.
			if err := srv.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			for _, name := range []string{server.DBFile + "-wal", server.DBFile + "-shm", server.InstallKeyFile} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			checkPrivate(t, dir)
			for _, want := range tt.wantFixed {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("log does not say %q:\n%s", want, logs)
				}
			}
			if tt.wantFixed == nil && strings.Contains(logs.String(), "private") {
				t.Errorf("nothing to fix, yet the log says:\n%s", logs)
			}
		})
	}
}

// checkPrivate checks that dir and every folder in it are 0700 and every
// file 0600.
func checkPrivate(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %04o, want %04o", path, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, dir string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, nil, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
