// Package fftest makes media fixtures with the real ffmpeg for tests, and
// reads results back: subtitle cues, a frame's pixels, stream tags. It is
// for _test files only; production code must not import it.
//
// Fixtures are cached on disk, in a folder of the user's temp dir, under
// a hash of their options: the first test (of any test process) to ask
// for a shape makes it, under a file lock, and later ones reuse it. A
// fixture is written to a temporary name and renamed, so a killed test
// never leaves half a file. Tests must not modify a fixture: copy it.
//
// When ffmpeg or ffprobe is missing the helpers fail the test, never skip
// it: a skip would hide a missing install step in CI.
package fftest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// recipe versions the fixture recipes: bump it when one changes, so that
// cached fixtures are made again.
const recipe = "fftest-1"

// Need fails t unless ffmpeg and ffprobe are on PATH.
func Need(t testing.TB) {
	t.Helper()
	for _, bin := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("fftest: %v: install ffmpeg (apt-get install ffmpeg)", err)
		}
	}
}

// cached returns the path of the fixture named by key and ext, making it
// with build (which writes the file it is given) if it is not cached yet.
func cached(t testing.TB, key, ext string, build func(out string) error) string {
	t.Helper()
	Need(t)
	dir := cacheDir(t)
	sum := sha256.Sum256([]byte(recipe + "\x00" + key))
	name := hex.EncodeToString(sum[:12])
	path := filepath.Join(dir, name+"."+ext)

	lock, err := os.OpenFile(filepath.Join(dir, name+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("fftest: %v", err)
	}
	defer lock.Close()
	// flock serialises makers across goroutines and test processes alike
	// (each open is its own lock holder); Close releases it.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("fftest: lock: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp, err := os.MkdirTemp(dir, "make-")
	if err != nil {
		t.Fatalf("fftest: %v", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "out."+ext)
	if err := build(out); err != nil {
		t.Fatalf("fftest: make fixture %s: %v", key, err)
	}
	if err := os.Rename(out, path); err != nil {
		t.Fatalf("fftest: %v", err)
	}
	return path
}

// cacheDir returns the per-user cache folder, refusing one that another
// user made in a shared temp dir.
func cacheDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("captionqa-fftest-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatalf("fftest: %v", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		t.Fatalf("fftest: %v", err)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || !st.IsDir() || int(sys.Uid) != os.Getuid() || st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("fftest: %s is not a private folder of this user", dir)
	}
	return dir
}

// ffmpeg runs the ffmpeg on PATH in dir and returns its standard output;
// its error carries stderr.
func ffmpeg(dir string, args ...string) ([]byte, error) {
	return command(dir, "ffmpeg", append([]string{"-nostdin", "-hide_banner", "-v", "error", "-y"}, args...)...)
}

func command(dir, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %v: %w: %s", bin, args, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}
