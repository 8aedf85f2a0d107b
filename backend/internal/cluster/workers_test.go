package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob/s3blob"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/store/postgres"
)

// TestWorkers runs one api node and two worker nodes: 30 renders shared
// by the workers, then a worker killed during a render; no artifact row
// is left without its bytes in the bucket.
func TestWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts cluster nodes")
	}
	t.Parallel()
	c := newCluster(t, burstOff, roleAPI, roleWorker, roleWorker)
	t.Run("ThirtyRenders", func(t *testing.T) { testThirtyRenders(t, c) })
	t.Run("WorkerKilled", func(t *testing.T) { testWorkerKilled(t, c) })
	t.Run("ArtifactsInBucket", func(t *testing.T) { testArtifactsInBucket(t, c) })
}

// rendered counts the renders of mode the node's log records (ffmpeg's
// "rendered" line): the jobs that node worked.
func rendered(t *testing.T, n *node, mode string) int {
	t.Helper()
	count := 0
	for _, rec := range n.logged(t, "ffmpeg: rendered") {
		if rec["mode"] == mode {
			count++
		}
	}
	return count
}

// testThirtyRenders: 30 mux_soft renders of a 2 s clip, accepted by the
// api node (10 for each of three accounts: the export-operation burst
// limit lets an account start 10 at once), all succeed, each rendered
// once, and both workers render some; each artifact downloads whole.
func testThirtyRenders(t *testing.T, c *cluster) {
	api, workers := c.nodes[0], c.nodes[1:]
	media := clip(t, 2)
	type owner struct {
		secret, pid, media string
	}
	var owners []owner
	for i := range 3 {
		k := c.account(t, fmt.Sprintf("renders%d@example.com", i+1), "pro", allScopes...)
		pid := newProject(t, api.url, k.Secret, "Renders")
		s := upload(t, api.url, k.Secret, pid, "clip.mp4", media)
		owners = append(owners, owner{k.Secret, pid, s.ObjectKey})
	}
	began := time.Now()
	jobs := map[string]string{} // job id → its account's key
	for range 10 {
		for _, o := range owners {
			jobs[render(t, api.url, o.secret, o.pid, "mux_soft", o.media)] = o.secret
		}
	}
	accepted := time.Since(began)
	pending := map[string]bool{}
	for id := range jobs {
		pending[id] = true
	}
	ended := map[string]*httpapi.JobView{}
	eventually(t, 3*time.Minute, func() bool {
		for id := range pending {
			if j := getJob(t, api.url, jobs[id], id); final(j) {
				ended[id] = j
				delete(pending, id)
			}
		}
		return len(pending) == 0
	}, func() string { return fmt.Sprintf("%d of %d jobs still not ended", len(pending), len(jobs)) })
	took := time.Since(began)
	for id, j := range ended {
		if j.Status != "succeeded" || len(j.Artifacts) != 1 {
			t.Errorf("job %s ended %s (%+v), %d artifacts; want succeeded with one", id, j.Status, j.Error, len(j.Artifacts))
			continue
		}
		var l link
		call(t, "GET", api.url+"/api/v1/artifacts/"+j.Artifacts[0].ArtifactID, jobs[id], nil, 200, &l)
		if b := download(t, l.URL); int64(len(b)) != j.Artifacts[0].Bytes {
			t.Errorf("job %s: downloaded %d bytes; the job reports %d", id, len(b), j.Artifacts[0].Bytes)
		}
	}
	split := make([]int, len(workers))
	total := 0
	for i, w := range workers {
		split[i] = rendered(t, w, "mux_soft")
		total += split[i]
		if split[i] == 0 {
			t.Errorf("%s worked none of the %d jobs", w.name, len(jobs))
		}
	}
	if total != len(jobs) {
		t.Errorf("the workers' logs record %d renders (%v) of %d jobs; want each rendered once", total, split, len(jobs))
	}
	t.Logf("%d renders accepted in %v, all ended %v after the first; split between the workers %v", len(jobs),
		accepted.Round(time.Millisecond), took.Round(time.Millisecond), split)
}

// testWorkerKilled: kill -9 of the worker running a burn-in (progress
// above 0) takes its ffmpeg down with it; the job then runs again on the
// other worker once the rescuer finds its heartbeat stopped (30 s, checked
// every 15 s) and succeeds, or fails with an error code and message; it
// never stays running.
func testWorkerKilled(t *testing.T, c *cluster) {
	api := c.nodes[0]
	k := c.account(t, "kill@example.com", "pro", allScopes...)
	pid := newProject(t, api.url, k.Secret, "Kill")
	s := upload(t, api.url, k.Secret, pid, "long.mp4", clip(t, 40))
	id := render(t, api.url, k.Secret, pid, "burn_in", s.ObjectKey)
	// The worker whose work folder has processes (ffmpeg) runs the job:
	// killed as soon as it is seen, the longest before the run ends.
	var victim, survivor *node
	first := waitJob(t, api.url, k.Secret, id, 2*time.Minute, func(j *httpapi.JobView) bool {
		victim, survivor = nil, nil
		for _, w := range c.nodes[1:] {
			if len(w.workProcs()) > 0 {
				victim = w
			} else {
				survivor = w
			}
		}
		return j.Status == "running" && victim != nil || final(j)
	})
	if first.Status != "running" || survivor == nil {
		t.Fatalf("burn-in before the kill: %+v, processes in the workers' folders %v and %v; want it running on one worker",
			first, c.nodes[1].workProcs(), c.nodes[2].workProcs())
	}
	victim.kill9(t)
	killed := time.Now()
	eventually(t, 10*time.Second, func() bool { return len(victim.workProcs()) == 0 },
		func() string {
			return fmt.Sprintf("processes still work in %s's folder: %v", victim.name, victim.workProcs())
		})

	// The statuses seen, a new one each time the status or the run (its
	// startedAt) changes.
	var seen []string
	var last *httpapi.JobView
	j := waitJob(t, api.url, k.Secret, id, 150*time.Second, func(j *httpapi.JobView) bool {
		if last == nil || last.Status != j.Status || !sameTime(last.StartedAt, j.StartedAt) {
			seen = append(seen, j.Status)
			t.Logf("%5.1f s after the kill: %s, progress %.3f, run started %v", time.Since(killed).Seconds(), j.Status, j.Progress, j.StartedAt)
		}
		last = j
		return final(j)
	})
	t.Logf("killed %s at progress %.3f; the job ended %s %v after the kill; statuses %v",
		victim.name, first.Progress, j.Status, time.Since(killed).Round(100*time.Millisecond), seen)
	switch {
	case j.Status == "succeeded":
		if j.StartedAt == nil || !j.StartedAt.After(*first.StartedAt) || len(j.Artifacts) != 1 {
			t.Errorf("job after the kill: %+v; want a run started after %v with one artifact", j, first.StartedAt)
		}
		if n := rendered(t, survivor, "burn_in"); n != 1 {
			t.Errorf("%s's log records %d burn-ins; want the job's second run", survivor.name, n)
		}
		var l link
		call(t, "GET", api.url+"/api/v1/artifacts/"+j.Artifacts[0].ArtifactID, k.Secret, nil, 200, &l)
		if b := download(t, l.URL); int64(len(b)) != j.Artifacts[0].Bytes {
			t.Errorf("downloaded %d bytes; the job reports %d", len(b), j.Artifacts[0].Bytes)
		}
	case j.Status == "failed" && j.Error != nil && j.Error.Code != "" && j.Error.Message != "":
	default:
		t.Errorf("after the kill the job ended %+v; want succeeded, or failed with an error code and message", j)
	}
}

// sameTime reports whether two optional times are both unset, or equal.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// testArtifactsInBucket: every artifact row in the database has its
// bytes in the bucket (the nodes put the bytes before committing the
// row).
func testArtifactsInBucket(t *testing.T, c *cluster) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, c.store, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	keys, err := db.Exports().ArtifactBlobKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := s3blob.Open(ctx, c.bucket.URL(), s3blob.Options{AccessKey: c.bucket.AccessKey, SecretKey: c.bucket.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		rc, info, err := blobs.Get(ctx, k, nil)
		if err != nil {
			t.Errorf("artifact row %s has no bytes in the bucket: %v", k, err)
			continue
		}
		rc.Close()
		if info.Size == 0 {
			t.Errorf("artifact row %s: an empty object", k)
		}
	}
	if len(keys) == 0 {
		t.Error("no artifact rows")
	}
	t.Logf("%d artifact rows, each with its object in the bucket", len(keys))
}
