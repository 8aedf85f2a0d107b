package ffmpeg

import (
	"os/exec"
	"testing"
)

// TestLimitArgv: the shell sets RLIMIT_AS before it execs the command,
// whose arguments it never parses, and no limit leaves argv alone.
func TestLimitArgv(t *testing.T) {
	if got := limitArgv(0, []string{"ffmpeg"}); len(got) != 1 {
		t.Errorf("no limit: %q", got)
	}
	argv := limitArgv(64<<20, []string{"sh", "-c", `ulimit -v; echo "$1"`, "x", "$(id) ;'"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%q: %v: %s", argv, err, out)
	}
	if got := string(out); got != "65536\n$(id) ;'\n" {
		t.Errorf("output %q; want the limit in KiB, then the argument as given", got)
	}
}

func TestOutOfMemory(t *testing.T) {
	for _, c := range []struct {
		stderr string
		want   bool
	}{
		{"ffmpeg: error while loading shared libraries: libavcodec.so.59: failed to map segment from shared object", true},
		{"Failed to inject frame into filter network: Cannot allocate memory", true},
		{"x264 [error]: malloc of size 44329344 failed", true},
		{"terminate called after throwing an instance of 'std::bad_alloc'", true},
		{"input: Invalid data found when processing input", false},
	} {
		if got := outOfMemory(c.stderr); got != c.want {
			t.Errorf("outOfMemory(%q) = %v", c.stderr, got)
		}
	}
}
