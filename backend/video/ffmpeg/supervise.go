package ffmpeg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

// run runs bin with args in dir, under nice and the address-space limit
// mem (bytes; 0 for none, see [limitArgv]), in a process group of its
// own, passing its standard output to stdout (which must read to EOF or
// return; what it leaves is drained) and keeping the end of its standard
// error.
//
// When ctx ends, the group gets SIGTERM (ffmpeg then finishes its output
// and exits within milliseconds) and, if anything is still running after
// the grace period, SIGKILL. After the leader exits, the group gets a
// SIGKILL anyway, for children that outlived it. Pdeathsig SIGKILLs the
// process if this one dies first (strictly, if the OS thread that started
// it exits, which Go's threads do not unless locked); the sweep of stale
// run folders covers what is left on disk.
//
// We use exec.Command, not CommandContext: the latter SIGKILLs the leader
// only, which leaves an MP4 without its moov atom and any children alive.
// The pipes are our own *os.File pairs, so that Wait returns when the
// leader exits even if a child still holds them; the final group kill
// then closes them.
//
// Errors: ctx's error (wrapped) when ctx ended, whatever the exit status;
// a *[video.RunError] when the process failed (OutOfMemory set when it
// ran out under mem); an error when it could not start.
func (r *Runner) run(ctx context.Context, dir, bin string, mem int64, args []string, stdout func(io.Reader)) error {
	argv := append([]string{bin}, args...)
	if r.nice != "" {
		argv = append([]string{r.nice, "-n", strconv.Itoa(r.niceness)}, argv...)
	}
	argv = limitArgv(mem, argv)
	name := filepath.Base(bin)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ffmpeg: %s not started: %w", name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("ffmpeg: %s: %w", name, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return fmt.Errorf("ffmpeg: %s: %w", name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	// The child has its copies; ours must go, or the readers never see EOF.
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return fmt.Errorf("ffmpeg: start %s: %w", name, err)
	}

	var readers sync.WaitGroup
	readers.Go(func() {
		stdout(outR)
		_, _ = io.Copy(io.Discard, outR)
		outR.Close()
	})
	var tail ring
	readers.Go(func() {
		_, _ = io.Copy(&tail, errR)
		errR.Close()
	})

	pgid := cmd.Process.Pid
	exited := make(chan struct{})
	var watcher sync.WaitGroup
	watcher.Go(func() { r.stopOnDone(ctx, pgid, exited) })
	werr := cmd.Wait()
	close(exited)
	watcher.Wait()
	// ESRCH (nothing left) is the usual answer.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	readers.Wait()

	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ffmpeg: %s stopped: %w", name, err)
	}
	if werr != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			code = ee.ExitCode()
		}
		stderr := tail.String()
		return &video.RunError{ExitCode: code, Stderr: stderr, Err: werr, OutOfMemory: mem > 0 && outOfMemory(stderr)}
	}
	return nil
}

// stopOnDone sends the group SIGTERM when ctx ends before the process
// exits, and SIGKILL if it has not exited after the grace period.
func (r *Runner) stopOnDone(ctx context.Context, pgid int, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	case <-ctx.Done():
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	grace := time.NewTimer(r.grace)
	defer grace.Stop()
	select {
	case <-exited:
	case <-grace.C:
		r.log.Warn("ffmpeg: process group ignored SIGTERM; killing it", "pgid", pgid, "grace", r.grace)
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
