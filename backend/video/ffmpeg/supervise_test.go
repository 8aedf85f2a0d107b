package ffmpeg

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-ffmpeg")
	writeScript(t, path, body)
	return path
}

// writeScript makes path an executable shell script running body. install
// writes it, not this process: a file this process held open for writing
// could be inherited by a command another test forks at that moment (until
// that command execs), and running the script would then fail with "text
// file busy".
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	src := path + ".src"
	if err := os.WriteFile(src, []byte("#!/bin/sh\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("install", "-m", "0700", src, path).CombinedOutput(); err != nil {
		t.Fatalf("install %s: %v\n%s", path, err, out)
	}
}

var muxSpec = video.RenderSpec{
	Mode: video.ModeMuxSoft, MediaKey: "media/clip", Container: "mp4",
	Subtitles: []byte("1\n00:00:01,000 --> 00:00:02,000\nHi\n"), SubtitleFormat: "srt",
	SubtitleCodec: "mov_text", Language: "eng", DurationSeconds: 10,
}

// TestStubbornProcessKilled: a process group that ignores SIGTERM (a
// shell and its child) is SIGKILLed after the grace period, and nothing
// of it is left.
func TestStubbornProcessKilled(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := script(t, `trap '' TERM
echo $$ > `+pidFile+`
sleep 60 &
echo out_time_us=1000000
echo progress=continue
sleep 60
`)
	const grace = 300 * time.Millisecond
	r, store := newTestRunner(t, func(o *Options) { o.FFmpeg, o.Grace = bin, grace })
	putBytes(t, store, muxSpec.MediaKey, []byte("not read by the script"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var canceledAt time.Time
	_, err := r.Render(ctx, muxSpec, func(float64) {
		if canceledAt.IsZero() {
			canceledAt = time.Now()
			cancel()
		}
	})
	took := time.Since(canceledAt)
	if canceledAt.IsZero() {
		t.Fatalf("the script's progress never arrived: %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took < grace || took > grace+5*time.Second {
		t.Errorf("returned %v after cancel; want the grace period (%v) and a little", took, grace)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if left := groupMembers(t, pgid); len(left) > 0 {
		t.Errorf("processes of group %d left: %v", pgid, left)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// TestRunErrorFromExit: a failing process gives a *video.RunError with
// its exit code and the end of its stderr, and its run folder goes.
func TestRunErrorFromExit(t *testing.T) {
	t.Parallel()
	bin := script(t, `echo "first line" >&2
echo "subs.srt: Invalid data found when processing input" >&2
exit 3
`)
	r, store := newTestRunner(t, func(o *Options) { o.FFmpeg = bin })
	putBytes(t, store, muxSpec.MediaKey, []byte("x"))
	_, err := r.Render(context.Background(), muxSpec, nil)
	var re *video.RunError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *video.RunError", err)
	}
	if re.ExitCode != 3 || re.Stderr != "first line\nsubs.srt: Invalid data found when processing input" {
		t.Errorf("RunError{ExitCode: %d, Stderr: %q}", re.ExitCode, re.Stderr)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// TestNice: ffmpeg runs at the configured niceness.
func TestNice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nice, want int
	}{{0, DefaultNice}, {5, 5}, {-1, 0}} {
		out := filepath.Join(t.TempDir(), "nice")
		bin := script(t, "nice > "+out+"\n")
		r, store := newTestRunner(t, func(o *Options) { o.FFmpeg, o.Nice = bin, c.nice })
		putBytes(t, store, muxSpec.MediaKey, []byte("x"))
		if _, err := r.Render(context.Background(), muxSpec, nil); err == nil {
			t.Fatal("the script made no output, yet Render succeeded")
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// nice with no argument prints the niceness it runs at, relative to
		// 0; the test itself may run niced.
		self, _ := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
		got, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if want := min(c.want+20-self, 19); got != want {
			t.Errorf("Nice %d: ran at %d, want %d", c.nice, got, want)
		}
	}
}

// groupMembers returns the live processes of group pgid, after giving
// killed ones a moment to go. Zombies do not count: the orphaned child
// of a killed group is dead, but its new parent (init) reaps it when it
// likes, and until then kill(-pgid, 0) still succeeds.
func groupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var live []int
		dirs, err := os.ReadDir("/proc")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
			if err != nil {
				continue // gone meanwhile
			}
			// pid (comm) state ppid pgrp …; comm may hold spaces.
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
				live = append(live, pid)
			}
		}
		if len(live) == 0 || time.Now().After(deadline) {
			return live
		}
		time.Sleep(20 * time.Millisecond)
	}
}
