// Package metrics measures CaptionQA for Prometheus: HTTP requests by
// route, method and status and their latency, engine runs and their
// duration, request bodies being read, refusals by limit, and the Go
// runtime and process. A [Metrics] keeps its own registry (no global
// state) and serves it with [Metrics.Handler], which the composition root
// mounts on a listener of its own, off the public routes.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// namespace prefixes every series of CaptionQA's own.
const namespace = "captionqa"

// Metrics is a set of Prometheus collectors in a registry of its own.
// Its methods are safe for concurrent use.
type Metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	engineRuns *prometheus.CounterVec
	engineTime *prometheus.HistogramVec
	uploads    prometheus.Gauge
	refusals   *prometheus.CounterVec
}

// New returns the metrics, registered with a new registry together with
// the Go runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "http", Name: "requests_total",
			Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "Time from a request's arrival to its last byte written, by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"route"}),
		engineRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "engine", Name: "runs_total",
			Help: "Engine runs, by outcome (ok or failed).",
		}, []string{"outcome"}),
		engineTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: "engine", Name: "run_duration_seconds",
			Help:    "Duration of engine runs, by outcome (ok or failed).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"outcome"}),
		uploads: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Subsystem: "http", Name: "uploads_in_flight",
			Help: "Request bodies being read now.",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "refusals_total",
			Help: "Requests refused by a limit with a time to retry, by error code (rate_limited, quota_exceeded, unavailable).",
		}, []string{"code"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.engineRuns, m.engineTime, m.uploads, m.refusals,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		// A collector's error leaves its series out instead of failing
		// the whole scrape.
		ErrorHandling: promhttp.ContinueOnError,
		// Scrapes are rare and small; bound them anyway.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// Registry returns the registry, to gather from in tests or to register
// more collectors with.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveRequest records one finished request. The method is folded into
// the standard ones and "other", and an out-of-range status into
// "other", so that no client can grow the number of series: route is a
// pattern of the route table (or "unmatched"), never a raw path.
func (m *Metrics) ObserveRequest(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, methodLabel(method), statusLabel(status)).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}

// ObserveEngineRun records one engine run and whether it succeeded.
func (m *Metrics) ObserveEngineRun(d time.Duration, ok bool) {
	outcome := "failed"
	if ok {
		outcome = "ok"
	}
	m.engineRuns.WithLabelValues(outcome).Inc()
	m.engineTime.WithLabelValues(outcome).Observe(d.Seconds())
}

// UploadStarted counts a request body being read.
func (m *Metrics) UploadStarted() { m.uploads.Inc() }

// UploadFinished uncounts a request body [Metrics.UploadStarted] counted.
func (m *Metrics) UploadFinished() { m.uploads.Dec() }

// Refused records a request refused by a limit; code is the error
// envelope's, one of the few the API passes (rate_limited,
// quota_exceeded, unavailable).
func (m *Metrics) Refused(code string) { m.refusals.WithLabelValues(code).Inc() }

// methodLabel returns method if it is a standard one, else "other".
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// statusLabel returns the status as text, or "other" outside 100 to 599.
func statusLabel(status int) string {
	if status < 100 || status > 599 {
		return "other"
	}
	return strconv.Itoa(status)
}
