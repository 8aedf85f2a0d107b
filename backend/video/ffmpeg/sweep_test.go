package ffmpeg

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestSweepWorkDir(t *testing.T) {
	t.Parallel()
	r, _ := newTestRunner(t, nil)
	dead := deadPID(t)
	own, err := r.newRun()
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name string, dir bool) {
		p := filepath.Join(r.workDir, name)
		if dir {
			if err := os.MkdirAll(filepath.Join(p, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stale := "job-" + strconv.Itoa(dead) + "-123"
	mk(stale, true)
	mk("job-1-456", true)                        // init is alive
	mk("job-"+strconv.Itoa(dead)+"-file", false) // not a folder
	mk("uploads", true)                          // not a run folder
	mk("job-notapid-789", true)

	removed, err := r.SweepWorkDir()
	if err != nil || removed != 1 {
		t.Fatalf("SweepWorkDir = %d, %v; want 1 removed", removed, err)
	}
	left := runFolders(t, r)
	if slices.Contains(left, stale) {
		t.Errorf("the dead process's folder is still there: %v", left)
	}
	for _, keep := range []string{filepath.Base(own), "job-1-456", "job-" + strconv.Itoa(dead) + "-file", "uploads", "job-notapid-789"} {
		if !slices.Contains(left, keep) {
			t.Errorf("%s was removed", keep)
		}
	}
}

// deadPID returns a pid no process has.
func deadPID(t *testing.T) int {
	t.Helper()
	// pid_max is at most 2^22; count down from there.
	for pid := 1<<22 - 1; pid > 1<<21; pid-- {
		if !alive(pid) {
			return pid
		}
	}
	t.Fatal("no free pid found")
	return 0
}
