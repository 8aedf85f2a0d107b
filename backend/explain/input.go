package explain

import (
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/preset"
)

// Input is what an explanation is written from: a process result's reports
// (POST /api/v1/explain, the OpenAPI operation explainReport), and
// optionally the delivery's
// suggestions and the cues' text.
type Input struct {
	// Report is the upload-ready delivery's report; required.
	Report *engine.Report
	// AidedReport is the enhanced delivery's report; nil scores it as the
	// delivery.
	AidedReport         *engine.Report
	AidedSameAsDelivery bool
	// Suggestions are the delivery's suggestions (process result
	// "suggestions"), and SuggestionsOmitted counts those the list left
	// out. Without them (an explain call that does not send them) the
	// report's warnings stand in.
	Suggestions        []caption.Diagnostic
	SuggestionsOmitted int
	HasSuggestions     bool
	// Cues are the delivery's cues, when the caller sends them: an action
	// quotes the first cue it names.
	Cues []Cue
	// Preset is the preset the report was made with, when the caller has
	// it (an account's own preset, which no lookup finds); nil looks
	// Report.Preset up among the built-ins.
	Preset *preset.Preset
}

// Cue is one cue's text and times, as an explain call may send it.
type Cue struct {
	Text    string `json:"text"`
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
}

// FromResult is the input of an explanation of res, as POST
// /api/v1/process with includeExplain builds it.
func FromResult(res *engine.Result) Input {
	in := Input{Report: res.Report, AidedReport: res.AidedReport, AidedSameAsDelivery: res.AidedSameAsDelivery,
		Suggestions: res.Suggestions, HasSuggestions: true, Preset: res.Applied}
	for _, o := range res.Omitted {
		if o.List == engine.ListSuggestions {
			in.SuggestionsOmitted += o.Count
		}
	}
	return in
}

// cueCount is how many cues a cue number of the explanation may name:
// the plan numbers the delivery's cues, the report's diagnostics the
// uploaded file's.
func (in *Input) cueCount() int {
	return max(in.Report.InputCues, in.Report.OutputCues, len(in.Cues))
}
