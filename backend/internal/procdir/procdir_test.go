package procdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSweep: a folder whose owner exited goes; one owned by a live process
// and one without an owner file stay.
func TestSweep(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	prefix := "procdir-test-"

	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead := mkdir(t, prefix+"dead", strconv.Itoa(exited.Process.Pid))
	unowned := mkdir(t, prefix+"unowned", "")
	mine, err := Make(prefix)
	if err != nil {
		t.Fatal(err)
	}
	// Making the next folder sweeps.
	if _, err := Make(prefix); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{dead: false, unowned: true, mine: true} {
		_, err := os.Stat(dir)
		if got := err == nil; got != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(dir), got, want)
		}
	}
}

// mkdir makes a folder in the temp dir, with an owner file holding owner
// unless it is empty.
func mkdir(t *testing.T, name, owner string) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if owner != "" {
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
