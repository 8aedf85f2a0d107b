// Package metrics measures CaptionQA for Prometheus: HTTP requests by
// route, method and status and their latency, engine runs and their
// duration, request bodies being read, refusals by limit, and the Go
// runtime and process. A [Metrics] keeps its own set of series (no global
// state) and serves it with [Metrics.Handler], which the composition root
// mounts on a listener of its own, off the public routes.
//
// The series are kept by github.com/VictoriaMetrics/metrics rather than
// Prometheus's own client: it writes the same text exposition format, and
// its package initialisation costs nothing measurable where the
// Prometheus client's (its default registry with Go and process
// collectors, protobuf descriptors) cost about 0.8 ms of every start of
// the binary, a convert or a version included (see docs/development.md,
// "Start-up").
package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// The series names, CaptionQA's own prefixed with "captionqa_".
const (
	// requestsTotal counts HTTP requests answered, by route pattern,
	// method and status.
	requestsTotal = "captionqa_http_requests_total"
	// requestDuration is the time from a request's arrival to its last
	// byte written, by route pattern.
	requestDuration = "captionqa_http_request_duration_seconds"
	// engineRuns counts engine runs, by outcome (ok or failed).
	engineRuns = "captionqa_engine_runs_total"
	// engineDuration is the duration of engine runs, by outcome.
	engineDuration = "captionqa_engine_run_duration_seconds"
	// uploadsInFlight is the number of request bodies being read now.
	uploadsInFlight = "captionqa_http_uploads_in_flight"
	// refusalsTotal counts requests refused by a limit with a time to
	// retry, by error code (rate_limited, quota_exceeded, unavailable).
	refusalsTotal = "captionqa_refusals_total"
)

// The histograms' upper bounds, in seconds: read-only tables.
var (
	requestBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}
	engineBuckets  = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
)

// Metrics is a set of series of its own. Its methods are safe for
// concurrent use.
type Metrics struct {
	set     *vm.Set
	uploads *vm.Counter // a counter that also goes down: the library's gauge reads a callback
}

// New returns empty metrics.
func New() *Metrics {
	set := vm.NewSet()
	return &Metrics{set: set, uploads: set.NewCounter(uploadsInFlight)}
}

// Handler serves the series, the Go runtime's and the process's in the
// Prometheus text exposition format.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		m.set.WritePrometheus(w)
		vm.WriteProcessMetrics(w)
	})
}

// ObserveRequest records one finished request. The method is folded into
// the standard ones and "other", and an out-of-range status into
// "other", so that no client can grow the number of series: route is a
// pattern of the route table (or "unmatched"), never a raw path.
func (m *Metrics) ObserveRequest(route, method string, status int, d time.Duration) {
	m.set.GetOrCreateCounter(series(requestsTotal, "method", methodLabel(method), "route", route, "status", statusLabel(status))).Inc()
	m.set.GetOrCreatePrometheusHistogramExt(series(requestDuration, "route", route), requestBuckets).Update(d.Seconds())
}

// ObserveEngineRun records one engine run and whether it succeeded.
func (m *Metrics) ObserveEngineRun(d time.Duration, ok bool) {
	outcome := "failed"
	if ok {
		outcome = "ok"
	}
	m.set.GetOrCreateCounter(series(engineRuns, "outcome", outcome)).Inc()
	m.set.GetOrCreatePrometheusHistogramExt(series(engineDuration, "outcome", outcome), engineBuckets).Update(d.Seconds())
}

// UploadStarted counts a request body being read.
func (m *Metrics) UploadStarted() { m.uploads.Inc() }

// UploadFinished uncounts a request body [Metrics.UploadStarted] counted.
func (m *Metrics) UploadFinished() { m.uploads.Dec() }

// Refused records a request refused by a limit; code is the error
// envelope's, one of the few the API passes (rate_limited,
// quota_exceeded, unavailable).
func (m *Metrics) Refused(code string) {
	m.set.GetOrCreateCounter(series(refusalsTotal, "code", code)).Inc()
}

// labelValue escapes a label value as the exposition format wants; a
// read-only table (a Replacer is safe for concurrent use).
var labelValue = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// series names one series: name{k1="v1",...} from name and label pairs,
// which callers give in the order of their keys, as Prometheus writes
// them.
func series(name string, pairs ...string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pairs[i])
		b.WriteString(`="`)
		labelValue.WriteString(&b, pairs[i+1])
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

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
