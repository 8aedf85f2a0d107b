package httpapi

import (
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
)

// MaxExplainBodyBytes bounds POST /api/v1/explain: a report whose lists
// are capped is a few hundred KiB; one sent with every diagnostic of a
// long file, and its cues, stays well below this.
const MaxExplainBodyBytes = 16 << 20

// explainRequest is the body of POST /api/v1/explain (the OpenAPI
// operation explainReport): the
// parts of a process result, as process returned them. suggestions and
// omitted (the result's own) are optional extensions in the served
// contract: with them the delivery's suggestions are exact.
type explainRequest struct {
	Report              *engine.Report       `json:"report"`
	AidedReport         *engine.Report       `json:"aidedReport"`
	AidedSameAsDelivery bool                 `json:"aidedSameAsDelivery"`
	AidedOutput         string               `json:"aidedOutput"`
	Cues                []explain.Cue        `json:"cues"`
	Suggestions         []caption.Diagnostic `json:"suggestions"`
	Omitted             []engine.Omission    `json:"omitted"`
}

func (r *explainRequest) input() explain.Input {
	in := explain.Input{Report: r.Report, AidedReport: r.AidedReport, AidedSameAsDelivery: r.AidedSameAsDelivery,
		Cues: r.Cues, Suggestions: r.Suggestions, HasSuggestions: r.Suggestions != nil}
	for _, o := range r.Omitted {
		if o.List == engine.ListSuggestions {
			in.SuggestionsOmitted += o.Count
		}
	}
	return in
}

// explainResponse is ExplainAI v3 (docs/api.md, ExplainAI) and the runs
// left today, as
// every counted v1 call reports them.
type explainResponse struct {
	*explain.Explanation
	RemainingAPIRunsToday int `json:"remainingApiRunsToday"`
}
