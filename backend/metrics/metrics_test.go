package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/metrics"
)

// TestExposition records one of each measurement and reads them back as
// Prometheus scrapes them, over loopback.
func TestExposition(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	m.ObserveRequest("/api/v1/me", "GET", 200, 3*time.Millisecond)
	m.ObserveRequest("/api/v1/me", "GET", 200, 4*time.Millisecond)
	m.ObserveRequest("unmatched", "BREW", 404, time.Millisecond)
	m.ObserveRequest("unmatched", "GET", 9999, time.Millisecond)
	m.ObserveEngineRun(20*time.Millisecond, true)
	m.ObserveEngineRun(time.Millisecond, false)
	m.UploadStarted()
	m.UploadStarted()
	m.UploadFinished()
	m.Refused("rate_limited")

	ts := httptest.NewServer(m.Handler())
	defer ts.Close()
	res, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	text := string(body)
	for _, want := range []string{
		`captionqa_http_requests_total{method="GET",route="/api/v1/me",status="200"} 2`,
		// A method no standard names, or an impossible status, cannot
		// grow the number of series.
		`captionqa_http_requests_total{method="other",route="unmatched",status="404"} 1`,
		`captionqa_http_requests_total{method="GET",route="unmatched",status="other"} 1`,
		`captionqa_http_request_duration_seconds_count{route="/api/v1/me"} 2`,
		`captionqa_engine_runs_total{outcome="ok"} 1`,
		`captionqa_engine_runs_total{outcome="failed"} 1`,
		`captionqa_engine_run_duration_seconds_bucket{outcome="ok",le="0.025"} 1`,
		`captionqa_http_uploads_in_flight 1`,
		`captionqa_refusals_total{code="rate_limited"} 1`,
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("scrape lacks %q", want)
		}
	}
	if strings.Contains(text, "BREW") {
		t.Error("a raw method reached a label")
	}
}

// TestOwnRegistry: two Metrics count apart (no global registry).
func TestOwnRegistry(t *testing.T) {
	t.Parallel()
	a, b := metrics.New(), metrics.New()
	a.Refused("quota_exceeded")
	rec := httptest.NewRecorder()
	b.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if strings.Contains(rec.Body.String(), "captionqa_refusals_total") {
		t.Errorf("b counted a's refusal:\n%s", rec.Body)
	}
}
