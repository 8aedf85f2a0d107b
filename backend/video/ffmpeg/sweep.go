package ffmpeg

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// SweepWorkDir removes the run folders of processes that are gone (a
// crash, a kill -9: their deferred removals never ran) and returns how
// many it removed. It keeps this process's folders and those of any live
// process, so several processes may share a work dir; a dead process's
// pid reused by another only delays the removal. Call it at startup.
// Errors: the work dir cannot be read, or folders could not be removed
// (the others still are).
func (r *Runner) SweepWorkDir() (removed int, err error) {
	entries, err := os.ReadDir(r.workDir)
	if err != nil {
		return 0, fmt.Errorf("ffmpeg: sweep work dir: %w", err)
	}
	self := os.Getpid()
	var errs []error
	for _, e := range entries {
		pid, ok := runPID(e.Name())
		if !ok || !e.IsDir() || pid == self || alive(pid) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(r.workDir, e.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	if removed > 0 {
		r.log.Info("ffmpeg: removed stale run folders", "count", removed)
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("ffmpeg: sweep work dir: %w", err)
	}
	return removed, nil
}

// runPID parses the pid out of a run folder's name, job-<pid>-<random>.
func runPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, runPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// alive reports whether a process with this pid exists (EPERM: it does,
// under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
