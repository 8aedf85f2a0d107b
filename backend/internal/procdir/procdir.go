// Package procdir makes temporary folders that belong to the running
// process. The throwaway servers of the test helpers (packages pgtest and
// s3test) keep their data in one; they die with their test binary, which
// has no hook to remove the folder then, so each folder records its
// owner's process id and making a new one first removes those whose owner
// is gone. Without it every test binary that started a PostgreSQL left
// 63 MB behind in the temp dir.
package procdir

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownerFile holds the owning process's id, in decimal.
const ownerFile = ".owner-pid"

// Make creates a folder named prefix plus a random suffix in the temp dir,
// owned by this process, after removing the folders of that prefix whose
// owner has exited.
func Make(prefix string) (string, error) {
	Sweep(prefix)
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// Sweep removes the folders of the prefix in the temp dir whose owner
// process has exited. A folder without an owner file (one being made, or
// not made by Make) is left alone.
func Sweep(prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// alive reports whether a process with the id exists (EPERM: it does,
// under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
