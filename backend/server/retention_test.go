package server_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"net/http"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/server"
)

// TestExportRetention: an export outlives its retention only until the
// sweep, which runs when the queue starts and hourly after: a server
// started 31 days after an export deletes the export's row and its file,
// and its artifact answers 404, while a newer export stays.
func TestExportRetention(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := testkit.NewClock(time.Date(2031, 3, 1, 9, 0, 0, 0, time.UTC))
	var logs *logBuffer
	config := func() server.Config {
		cfg := server.DefaultConfig()
		cfg.Addr, cfg.DataDir, cfg.Now = "127.0.0.1:0", dir, clock.Now
		cfg.ShutdownTimeout = 15 * time.Second
		cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6 // the test polls
		logs = withLog(&cfg)
		return cfg
	}

	// First start: one export, then the server stops.
	first := server.New(config())
	ctx, cancel := context.WithCancel(context.Background())
	if err := first.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Run(ctx) }()
	key, base := first.Owner().Secret, first.URL()+"/api/v1"
	var p httpapi.ProjectView
	mustCall(t, "POST", base+"/projects", key, `{"name":"Kept a month","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	var old httpapi.ExportCreated
	mustCall(t, "POST", base+"/projects/"+p.ID+"/exports", key, `{"presets":["youtube"]}`, 201, &old)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, server.BlobsDir, "artifacts", old.ExportID)
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the export's files are not where the test looks: %v", err)
	}

	// 31 days later: the sweep at the start deletes it.
	clock.Advance(31 * 24 * time.Hour)
	second := server.New(config())
	runServer(t, second)
	base = second.URL() + "/api/v1"
	var fresh httpapi.ExportCreated
	mustCall(t, "POST", base+"/projects/"+p.ID+"/exports", key, `{"presets":["youtube"]}`, 201, &fresh)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", logs)
		}
	})
	waitUntil(t, "the expired export's artifact answers 404", func() bool {
		return statusOf(t, base+"/artifacts/"+old.Artifacts[0].ArtifactID, key) == 404
	})
	waitUntil(t, "the expired export's files are deleted", func() bool {
		entries, err := os.ReadDir(file)
		return os.IsNotExist(err) || (err == nil && len(entries) == 0)
	})
	if got := statusOf(t, base+"/artifacts/"+fresh.Artifacts[0].ArtifactID, key); got != 200 {
		t.Errorf("the new export's artifact: %d; want 200", got)
	}
}

// waitUntil polls ok every 20 ms until it holds, failing t after 30 s.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not so after 30 s: %s", what)
		}
	}
}

// statusOf is the status of a GET of url with the Bearer secret.
func statusOf(t *testing.T, url, secret string) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
