package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/server"
)

// TestMetricsListener: with a metrics address, a second listener serves
// /metrics (and nothing else) with the API's requests counted by route
// and status; the API's own listener has no /metrics.
func TestMetricsListener(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, t.TempDir())
	cfg.MetricsAddr = "127.0.0.1:0"
	srv := server.New(cfg)
	start(t, srv)
	if !strings.HasPrefix(srv.MetricsURL(), "http://127.0.0.1:") || !strings.HasSuffix(srv.MetricsURL(), "/metrics") {
		t.Fatalf("MetricsURL = %q", srv.MetricsURL())
	}
	for range 3 {
		req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/me", nil)
		req.Header.Set("Authorization", "Bearer "+srv.Owner().Secret)
		do(t, req)
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/me", nil)
	do(t, req) // 401

	status, text := fetch(t, srv.MetricsURL())
	if status != 200 {
		t.Fatalf("GET /metrics: %d", status)
	}
	for _, want := range []string{
		`captionqa_http_requests_total{method="GET",route="/api/v1/me",status="200"} 3`,
		`captionqa_http_requests_total{method="GET",route="/api/v1/me",status="401"} 1`,
		`captionqa_http_request_duration_seconds_count{route="/api/v1/me"} 4`,
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("scrape lacks %q", want)
		}
	}

	base := strings.TrimSuffix(srv.MetricsURL(), "/metrics")
	if status, _ := fetch(t, base+"/api/v1/openapi.json"); status != 404 {
		t.Errorf("metrics listener served an API path: %d", status)
	}
	if status, text := fetch(t, srv.URL()+"/metrics"); status == 200 && strings.Contains(text, "captionqa_http_requests_total") {
		t.Error("the API listener serves the metrics")
	}
}

// TestNoMetricsByDefault: without a metrics address there is no metrics
// listener.
func TestNoMetricsByDefault(t *testing.T) {
	t.Parallel()
	srv := server.New(testConfig(t, t.TempDir()))
	start(t, srv)
	if got := srv.MetricsURL(); got != "" {
		t.Errorf("MetricsURL = %q without --metrics-addr", got)
	}
}

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}
