package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestVideoMemoryLimit: under a 512 MiB limit, ffprobe still reads a
// 4096x2304 upload (it needs about 300 MiB), but the burn-in's encoder
// cannot allocate its frames: the job fails with memory_limit, its
// message quoting ffmpeg, and the server goes on serving.
func TestVideoMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ffmpeg under a memory limit (make test runs it)")
	}
	t.Parallel()
	e := newVideoEnv(t, func(cfg *server.Config) { cfg.FFmpegMemoryLimit = 512 << 20 })
	pid := e.newProject("Big picture", mediaIR)
	m := e.uploadFile(pid, fftest.Clip(t, fftest.ClipOptions{Width: 4096, Height: 2304, Seconds: 1}))
	a := e.render(map[string]any{"projectId": pid, "mode": "burn_in", "preset": "youtube", "mediaObjectKey": m.ObjectKey})
	j, _ := e.waitJob(a.JobID, 2*time.Minute, final)
	if j.Status != "failed" || j.Error == nil || j.Error.Code != "memory_limit" || !strings.Contains(j.Error.Message, "memory limit") {
		t.Fatalf("burn-in over the memory limit: %+v (error %+v); want failed with memory_limit", j, j.Error)
	}
	t.Logf("job error: %s", j.Error.Message)
	e.call("GET", "/api/v1/projects/"+pid, nil, 200, nil)
}
