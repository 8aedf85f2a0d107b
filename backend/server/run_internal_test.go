package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

type slowJob struct {
	Hold bool `json:"hold"` // wait for cancellation instead of the release
}

func (slowJob) Kind() string { return "test_slow" }

// TestRunLifecycle serves a real listener and a real queue, and stops on
// ctx: a running job that finishes within the bound completes; one that
// does not is canceled and handed back (the expected end of a shutdown
// during a long render, not an error), and the shutdown returns about at
// the bound.
func TestRunLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hold     bool
		canceled bool
	}{
		{"job finishes within the bound", false, false},
		{"job outlives the bound", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The lifecycle is the same on every store; SQLite's queue
			// lets the test enqueue in a transaction of its own.
			db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), DBFile), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			started := make(chan struct{})
			release := make(chan struct{})
			result := make(chan error, 1)
			ws := jobs.NewWorkers()
			jobs.Handle(ws, func(ctx context.Context, j slowJob) error {
				close(started)
				var err error
				if j.Hold {
					<-ctx.Done()
					err = ctx.Err()
				} else {
					<-release
				}
				result <- err
				return err
			})
			q, err := db.OpenQueue(context.Background(), jobs.QueueOptions{Workers: ws, PollInterval: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })}
			serve := func(ctx context.Context) error {
				go func() { <-ctx.Done(); srv.Shutdown(context.Background()) }()
				if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
					return err
				}
				return nil
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- runLifecycle(ctx, serve, q, 500*time.Millisecond) }()
			if err := q.WriteTx(ctx, func(tx *sqlstore.Tx) error {
				_, err := tx.Enqueue(ctx, slowJob{Hold: tc.hold}, nil)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-started:
			case <-time.After(20 * time.Second):
				t.Fatal("the job did not start")
			}
			resp, err := http.Get("http://" + ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			cancel()
			if !tc.hold {
				// The job is still running when the shutdown begins.
				time.Sleep(100 * time.Millisecond)
				close(release)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("runLifecycle: %v, want nil", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("runLifecycle did not return")
			}
			if err := <-result; errors.Is(err, context.Canceled) != tc.canceled {
				t.Errorf("job result %v, canceled want %v", err, tc.canceled)
			}
			if _, err := http.Get("http://" + ln.Addr().String()); err == nil {
				t.Error("still serving after the shutdown")
			}
		})
	}
}
