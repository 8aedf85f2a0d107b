package bench

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption/synth"
)

// binaries are the two commands under test, built once a run: captionqa
// from the checkout and go-astisub's own CLI, astisub, at the version
// this module's go.mod names.
var binaries = sync.OnceValues(func() ([2]string, error) {
	dir, err := os.MkdirTemp("", "captionqa-bench-")
	if err != nil {
		return [2]string{}, err
	}
	out := [2]string{filepath.Join(dir, "captionqa"), filepath.Join(dir, "astisub")}
	// captionqa in its own module (the checkout above this one), astisub
	// in this one, which requires go-astisub.
	for i, b := range []struct{ dir, pkg string }{{"..", "."}, {".", "github.com/asticode/go-astisub/astisub"}} {
		cmd := exec.Command("go", "build", "-trimpath", "-o", out[i], b.pkg)
		cmd.Dir, cmd.Stderr = b.dir, os.Stderr
		if err := cmd.Run(); err != nil {
			return out, err
		}
	}
	return out, nil
})

// BenchmarkWholeProcess times each command as a whole process, start-up
// included, as a user runs it: captionqa version; the 4 MiB, 40,000-cue
// SRT converted to WebVTT by captionqa and by the astisub CLI, one after
// the other in the same run; and
// captionqa process of the same file with the auto-split-cps fixes and the
// DCMP grading. Each reports the median of its runs (median-ms), which
// one slow run does not move; run with -benchtime=10x for ten.
func BenchmarkWholeProcess(b *testing.B) {
	bins, err := binaries()
	if err != nil {
		b.Fatalf("build the commands: %v", err)
	}
	ours, theirs := bins[0], bins[1]
	dir := b.TempDir()
	src := filepath.Join(dir, "big.srt")
	if err := os.WriteFile(src, synth.SRT(40_000), 0o600); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "out.vtt")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"version", []string{ours, "version"}},
		{"convert/captionqa", []string{ours, "convert", "--to", "vtt", src}},
		{"convert/astisub", []string{theirs, "convert", "-i", src, "-o", out}},
		{"process/auto-split-cps+dcmp", []string{ours, "process", src, "--fix-profile", "auto-split-cps", "--standard", "dcmp"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			// What a command prints goes to a file, as astisub's -o does.
			stdout, err := os.Create(filepath.Join(dir, "stdout"))
			if err != nil {
				b.Fatal(err)
			}
			defer stdout.Close()
			var runs []time.Duration
			for b.Loop() {
				if _, err := stdout.Seek(0, io.SeekStart); err != nil {
					b.Fatal(err)
				}
				if err := stdout.Truncate(0); err != nil {
					b.Fatal(err)
				}
				cmd := exec.Command(c.args[0], c.args[1:]...)
				cmd.Stdout, cmd.Stderr = stdout, os.Stderr
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("%v: %v", c.args, err)
				}
				runs = append(runs, time.Since(start))
			}
			slices.Sort(runs)
			b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "median-ms")
		})
	}
}
