package llmtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPathsAndStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		b          Behaviour
		method     string
		path       string
		wantStatus int
	}{
		{name: "GET", method: http.MethodGet, path: Path, wantStatus: http.StatusNotFound},
		{name: "other path", method: http.MethodPost, path: "/chat/completions", wantStatus: http.StatusNotFound},
		{name: "status", b: Behaviour{Status: http.StatusBadGateway}, method: http.MethodPost, path: Path, wantStatus: http.StatusBadGateway},
		{name: "not a chat request", method: http.MethodPost, path: Path, wantStatus: http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New(t, tt.b)
			base := strings.TrimSuffix(s.URL, "/v1")
			req, err := http.NewRequestWithContext(t.Context(), tt.method, base+tt.path, strings.NewReader(`{"messages":[]}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer k")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			var e struct {
				Error struct{ Message string } `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Error.Message == "" {
				t.Errorf("body: %v, %+v; want an OpenAI-style error", err, e)
			}
			last := s.Last()
			if s.Count() != 1 || last.Method != tt.method || last.Path != tt.path || last.Authorization != "Bearer k" {
				t.Errorf("recorded %d requests, last %+v", s.Count(), last)
			}
			if _, err := last.Draft(); err == nil {
				t.Error("Draft() of a request without a user message succeeded")
			}
		})
	}
}

// TestDelayReleased checks that a handler holding an answer back lets go
// when the test ends, so that the server's Close does not wait for it.
func TestDelayReleased(t *testing.T) {
	t.Parallel()
	done := make(chan error, 1)
	start := time.Now()
	t.Run("slow", func(t *testing.T) {
		s := New(t, Behaviour{Delay: time.Hour})
		go func() {
			// No deadline on purpose: only the end of the test frees it.
			resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader("{}"))
			if err == nil {
				resp.Body.Close()
			}
			done <- err
		}()
		for s.Count() == 0 {
			if time.Since(start) > 2*time.Second {
				t.Fatal("the request never arrived")
			}
			time.Sleep(time.Millisecond)
		}
	})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the test took %v to end", d)
	}
	<-done
}
