package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/grant"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// processResponse is the process result (the OpenAPI operation
// processCaptions): the engine's result
// and the caller's standing.
type processResponse struct {
	*engine.Result
	// RemainingAPIRunsToday is set on POST /api/v1/process.
	RemainingAPIRunsToday *int `json:"remainingApiRunsToday,omitempty"`
	// RemainingToday is set on the homepage converter, whose pool is not
	// the v1 one.
	RemainingToday       *int                 `json:"remainingToday,omitempty"`
	ExplainAvailable     bool                 `json:"explainAvailable"`
	Explain              *explain.Explanation `json:"explain,omitempty"`
	ExplainSkippedReason string               `json:"explainSkippedReason,omitempty"`
}

func newProcessResponse(res *engine.Result, x grant.Outcome) processResponse {
	r := *res
	// Lists are arrays on the wire, never null.
	r.Suggestions = nonNil(r.Suggestions)
	r.Report = withArrays(r.Report)
	r.AidedReport = withArrays(r.AidedReport)
	return processResponse{Result: &r, ExplainAvailable: x.Available, Explain: x.Explanation, ExplainSkippedReason: x.Skipped}
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

// writeProcessResponse sends r with status 200. A long file's result runs
// to tens of megabytes, so it is streamed by the result's own encoder
// (the same JSON as encoding/json, several times faster) rather than built
// whole by c.JSON. Once the status is sent an error can no longer become
// an envelope; the only one left is the client hanging up.
func writeProcessResponse(c echo.Context, r processResponse) error {
	if _, pretty := c.QueryParams()["pretty"]; pretty {
		// Indented for a person reading it, as echo indents every other
		// route's JSON on ?pretty; the same document, built whole.
		return c.JSON(http.StatusOK, r)
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	res.WriteHeader(http.StatusOK)
	e := jsonw.NewEncoder(res)
	e.Raw("{")
	r.EncodeJSONFields(e)
	if r.RemainingAPIRunsToday != nil {
		e.Key("remainingApiRunsToday", false)
		e.Int(int64(*r.RemainingAPIRunsToday))
	}
	if r.RemainingToday != nil {
		e.Key("remainingToday", false)
		e.Int(int64(*r.RemainingToday))
	}
	e.Key("explainAvailable", false)
	e.Bool(r.ExplainAvailable)
	if r.Explain != nil {
		e.Key("explain", false)
		b, err := json.Marshal(r.Explain)
		if err != nil {
			return err
		}
		e.Raw(string(b))
	}
	if r.ExplainSkippedReason != "" {
		e.Key("explainSkippedReason", false)
		e.String(r.ExplainSkippedReason)
	}
	e.Raw("}\n")
	return e.Flush()
}
