package httpapi

import (
	"github.com/captionqa/captionqa/backend/engine"
)

// Reasons an ExplainAI section is absent (spec 2.1 explainSkippedReason).
const (
	ExplainNotEntitled   = "not_entitled"
	ExplainNotConfigured = "not_configured"
)

// processResponse is the process result of spec 2.1: the engine's result
// and the caller's standing.
type processResponse struct {
	*engine.Result
	// RemainingAPIRunsToday is set on POST /api/v1/process.
	RemainingAPIRunsToday *int `json:"remainingApiRunsToday,omitempty"`
	// RemainingToday is set on the homepage converter, whose pool is not
	// the v1 one.
	RemainingToday *int `json:"remainingToday,omitempty"`
	// ExplainAvailable is false in this release: no provider ships.
	ExplainAvailable     bool   `json:"explainAvailable"`
	ExplainSkippedReason string `json:"explainSkippedReason,omitempty"`
}

func newProcessResponse(res *engine.Result, includeExplain bool, skip string) processResponse {
	r := *res
	// Lists are arrays on the wire, never null.
	r.Suggestions = nonNil(r.Suggestions)
	r.Report = withArrays(r.Report)
	r.AidedReport = withArrays(r.AidedReport)
	out := processResponse{Result: &r}
	if includeExplain {
		out.ExplainSkippedReason = skip
	}
	return out
}

func withArrays(rep *engine.Report) *engine.Report {
	if rep == nil {
		return nil
	}
	c := *rep
	c.Diagnostics = nonNil(c.Diagnostics)
	c.Remaining = nonNil(c.Remaining)
	c.Fixes = nonNil(c.Fixes)
	return &c
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
