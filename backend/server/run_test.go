package server_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// TestRun starts the whole server with Run on a data folder, serves a
// request, and stops on ctx: Run returns nil and the blob folder is
// there, private.
func TestRun(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	cfg.ShutdownTimeout = 2 * time.Second
	withLog(&cfg)
	srv := server.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := srv.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	url := srv.URL() + "/api/v1/openapi.json"
	var resp *http.Response
	var err error
	for range 50 {
		if resp, err = http.Get(url); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
	st, err := os.Stat(filepath.Join(cfg.DataDir, server.BlobsDir))
	if err != nil || !st.IsDir() {
		t.Fatalf("blob folder: %v", err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("still serving after Run returned")
	}
	if err := srv.Close(); err != nil {
		t.Errorf("Close after Run: %v", err)
	}
}
