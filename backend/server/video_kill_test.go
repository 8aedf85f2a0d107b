package server_test

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestVideoKill9: kill -9 of the server while a burn-in runs (progress
// above 0) takes its ffmpeg down with it; restarted on the same data
// folder, the server's rescuer (at the start and every 15 s, for a job
// whose heartbeat is 30 s old) runs the job again or fails it as
// interrupted, never leaving it running; once it ends the work folder is
// empty, and a succeeded job's artifact downloads whole and plays.
func TestVideoKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	dir := t.TempDir()
	c := startChild(t, dir)
	key := c.secret
	e := childEnv(t, c, dir, key)
	pid := e.newProject("Kill", mediaIR)
	// 40 s of 640x360: a burn-in of some seconds, run twice.
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 40})
	m := e.uploadFile(pid, clip)
	created := e.render(map[string]any{"projectId": pid, "mode": "burn_in", "preset": "youtube", "mediaObjectKey": m.ObjectKey})
	first, _ := e.waitJob(created.JobID, 2*time.Minute, func(j *httpapi.JobView) bool { return j.Status == "running" && j.Progress > 0 || final(j) })
	if first.Status != "running" {
		t.Fatalf("burn-in before the kill: %+v; want it running", first)
	}
	if len(workProcs(dir)) == 0 {
		t.Error("no ffmpeg in the work folder while the burn-in runs")
	}
	c.kill9(t)
	killed := time.Now()

	// ffmpeg does not outlive the server.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		procs := workProcs(dir)
		if len(procs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("10 s after kill -9 of the server, processes still work in its folder: %v", procs)
			break
		}
	}
	left := listDir(filepath.Join(dir, "work"))
	t.Logf("killed at progress %.3f; the dead run left %v", first.Progress, left)

	c = startChild(t, dir)
	e = childEnv(t, c, dir, key)
	var statuses []string
	j, _ := e.waitJob(created.JobID, 3*time.Minute, func(j *httpapi.JobView) bool {
		if n := len(statuses); n == 0 || statuses[n-1] != j.Status {
			statuses = append(statuses, j.Status)
			t.Logf("%5.1f s after the kill: %s (progress %.3f)", time.Since(killed).Seconds(), j.Status, j.Progress)
		}
		return final(j)
	})
	t.Logf("ended %s %v after the kill; statuses seen %v", j.Status, time.Since(killed).Round(time.Second), statuses)
	switch {
	case j.Status == "succeeded":
		if j.StartedAt == nil || !j.StartedAt.After(*first.StartedAt) || j.Progress != 1 || j.FinishedAt == nil {
			t.Errorf("job run again: %+v; want a later startedAt than %v and progress 1", j, first.StartedAt)
		}
		out := writeTemp(t, "out.mp4", e.download(j.Artifacts[0].ArtifactID))
		if d := duration(t, out); math.Abs(d-40) > 0.3 {
			t.Errorf("the artifact lasts %v s; want the source's 40 s", d)
		}
	case j.Status == "failed" && j.Error != nil && j.Error.Code == "interrupted":
	default:
		t.Errorf("after the restart the job ended %+v; want succeeded, or failed as interrupted", j)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left, procs := listDir(filepath.Join(dir, "work")), workProcs(dir)
		if len(left) == 0 && len(procs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("after the job ended: work folder %v, processes %v; want nothing left", left, procs)
			break
		}
	}
}
