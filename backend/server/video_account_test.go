package server_test

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

// TestVideoOneJobPerAccount: with two heavy workers, account A's two
// burn-ins never run at once, and the one that waits leaves its worker
// to account B's burn-in, which runs beside A's first. Canceling A's
// running job lets its other one start.
func TestVideoOneJobPerAccount(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three burn-ins with ffmpeg (make test runs it)")
	}
	t.Parallel()
	e := newVideoEnv(t, func(cfg *server.Config) { cfg.VideoWorkers = 2 })
	clip := longClip(t)
	pid := e.newProject("A", mediaIR)
	m := e.uploadFile(pid, clip)
	b := *e
	b.key = e.otherAccount("b@example.com")
	pidB := b.newProject("B", mediaIR)
	mB := b.uploadFile(pidB, clip)

	reqA := map[string]any{"projectId": pid, "mode": "burn_in", "preset": "youtube", "mediaObjectKey": m.ObjectKey}
	a1, a2 := e.render(reqA), e.render(reqA)
	b1 := b.render(map[string]any{"projectId": pidB, "mode": "burn_in", "preset": "youtube", "mediaObjectKey": mB.ObjectKey})

	// poll reads A's jobs until done says so, failing if both ever run.
	poll := func(what string, done func(x, y, z *httpapi.JobView) bool) (x, y *httpapi.JobView) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			x, y, z := e.getJob(a1.JobID), e.getJob(a2.JobID), b.getJob(b1.JobID)
			if x.Status == "running" && y.Status == "running" {
				t.Fatalf("account A's two jobs run at once: %+v, %+v", x, y)
			}
			if done(x, y, z) {
				return x, y
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: A %s %s, B %s after 2 minutes", what, x.Status, y.Status, z.Status)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	x, y := poll("B's job beside one of A's", func(x, y, z *httpapi.JobView) bool {
		return z.Status == "running" && (x.Status == "running") != (y.Status == "running")
	})
	runningA, waitingA := a1.JobID, a2.JobID
	if y.Status == "running" {
		runningA, waitingA = a2.JobID, a1.JobID
		x, y = y, x
	}
	if y.Status != "queued" || y.StartedAt != nil {
		t.Fatalf("A's other job while B's and A's first run: %+v; want it queued", y)
	}
	e.call("DELETE", "/api/v1/jobs/"+runningA, nil, 200, nil)
	poll("A's second job after its first was canceled", func(x, y, _ *httpapi.JobView) bool {
		j := x
		if waitingA == a2.JobID {
			j = y
		}
		return j.Status == "running" || final(j)
	})
	if j := e.getJob(waitingA); j.Status != "running" && j.Status != "succeeded" {
		t.Errorf("A's second job: %+v; want it run", j)
	}
}
