package project

import (
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/standard"
)

// Verdict is what the engine found of one exported file: an export is a
// delivery, and the file that goes out needs the same verdict a process
// run gives (docs/api.md, Exports).
type Verdict struct {
	// Status is the file's delivery status: ready, will_adapt or
	// needs_attention.
	Status engine.Status
	// Problems counts the enforced problems still in the file, every one
	// (the report's lists stop after the first of each code), and
	// Suggestions the readability suggestions.
	Problems, Suggestions int
	// Standard is the grading against the export's standard; nil without
	// one.
	Standard *StandardVerdict
}

// StandardVerdict is the clause summary of a graded file.
type StandardVerdict struct {
	ID, Title string
	Summary   standard.Summary
}

// verdictOf is the verdict of res, the delivery of one preset.
func verdictOf(res *engine.Result) *Verdict {
	v := &Verdict{Status: res.DeliveryStatus, Problems: len(res.Report.Remaining), Suggestions: len(res.Suggestions)}
	for _, o := range res.Report.Omitted {
		if o.List == engine.ListRemaining {
			v.Problems += o.Count
		}
	}
	for _, o := range res.Omitted {
		if o.List == engine.ListSuggestions {
			v.Suggestions += o.Count
		}
	}
	if s := res.Report.Standard; s != nil {
		v.Standard = &StandardVerdict{ID: s.ID, Title: s.Title, Summary: s.Summary}
	}
	return v
}
