package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/captionqa/captionqa/backend/metrics"
)

// newMetricsServer returns the HTTP server of the metrics listener
// ([Config.MetricsAddr]): GET (and HEAD) /metrics and nothing else, kept
// off the API's listener so that no route of the public API exposes it.
func newMetricsServer(m *metrics.Metrics, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	return &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
