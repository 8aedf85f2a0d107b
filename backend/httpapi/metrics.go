package httpapi

import "time"

// Metrics receives what the API measures; the composition root hands in
// a Prometheus-backed implementation (package metrics). Every method must
// be safe for concurrent use and cheap: they run on every request.
type Metrics interface {
	// ObserveRequest records one finished request: the route pattern (such
	// as /api/v1/api-keys/:keyId, or "unmatched"), method, final status and
	// duration.
	ObserveRequest(route, method string, status int, d time.Duration)
	// ObserveEngineRun records one engine run and whether it succeeded.
	ObserveEngineRun(d time.Duration, ok bool)
	// UploadStarted and UploadFinished bracket a request body being read.
	UploadStarted()
	UploadFinished()
	// Refused records a request refused by a limit, one that told the
	// client when to retry: code is the envelope's, rate_limited,
	// quota_exceeded or unavailable.
	Refused(code string)
}

// noMetrics discards everything.
type noMetrics struct{}

func (noMetrics) ObserveRequest(string, string, int, time.Duration) {}
func (noMetrics) ObserveEngineRun(time.Duration, bool)              {}
func (noMetrics) UploadStarted()                                    {}
func (noMetrics) UploadFinished()                                   {}
func (noMetrics) Refused(string)                                    {}
