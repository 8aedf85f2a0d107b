package app

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHasDisplay(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"DISPLAY": ":0"}, true},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, true},
		{map[string]string{"DISPLAY": "", "WAYLAND_DISPLAY": ""}, false},
	} {
		if got := HasDisplay(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("HasDisplay(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestRunWithoutDesktopTag(t *testing.T) {
	if Built {
		t.Skip("desktop build")
	}
	err := Run(context.Background(), nil, Options{})
	if !errors.Is(err, ErrNotBuilt) || !strings.Contains(err.Error(), "run captionqa serve") {
		t.Fatalf("Run = %v, want ErrNotBuilt naming captionqa serve", err)
	}
}

// The window's first request may come before OnStartup has opened the
// server: the gate holds it, then serves it.
func TestGateHoldsUntilOpen(t *testing.T) {
	g := newGate()
	done := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		g.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		done <- rec
	}()
	select {
	case <-done:
		t.Fatal("served before open")
	case <-time.After(20 * time.Millisecond):
	}
	g.open(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ui") }))
	g.fail(errors.New("ignored: open came first"))
	rec := <-done
	if rec.Code != 200 || rec.Body.String() != "ui" {
		t.Fatalf("got %d %q", rec.Code, rec.Body)
	}
}

func TestGateFailShowsError(t *testing.T) {
	g := newGate()
	g.fail(errors.New("listen on 127.0.0.1:8787: address <already> in use"))
	rec := httptest.NewRecorder()
	g.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	body := rec.Body.String()
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(body, "could not start") ||
		!strings.Contains(body, "address &lt;already&gt; in use") {
		t.Fatalf("got %d %q", rec.Code, body)
	}
}

func TestGateReleasesCancelledRequest(t *testing.T) {
	g := newGate()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	g.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil).WithContext(ctx)) // must return
}
