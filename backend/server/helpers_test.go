package server_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// logBuffer collects a server's log lines; the server's goroutines write
// while the test reads.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// withLog sends cfg's logs to a buffer it returns.
func withLog(cfg *server.Config) *logBuffer {
	buf := &logBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return buf
}

// start opens srv, binds it and serves it until the test ends.
func start(t *testing.T, srv *server.Server) {
	t.Helper()
	ctx := context.Background()
	if err := srv.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	t.Cleanup(func() {
		stop()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after cancel")
		}
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}
