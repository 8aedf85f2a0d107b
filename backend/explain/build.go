package explain

import (
	"github.com/captionqa/captionqa/backend/preset"
)

// Build is the built-in explainer: the explanation of in for its preset
// p, with no network and the same text for the same input, every time.
// It is linear in the report's findings. in must be valid ([Validate]).
func Build(in *Input, p *preset.Preset) *Explanation {
	actions := plan(in, p.Title)
	x := &Explanation{Format: Format, Status: StatusActions, Actions: actions, WrittenBy: WrittenByBuiltin}
	if len(actions) == 0 {
		x.Status = StatusClear
	}
	share := clauseShare(in.Report)
	sugg, omitted := in.suggestions()
	omittedN := 0
	for _, n := range omitted {
		omittedN += n
	}
	upload := Score(in.Report, sugg, omittedN, share)
	enhanced := upload
	if a := in.AidedReport; a != nil && !in.AidedSameAsDelivery {
		enhanced = Score(a, nil, 0, share)
	}
	x.DeliveryComparison = Comparison{UploadReadyScore: upload, EnhancedScore: enhanced}
	w := writer{in: in, p: p, x: x}
	x.DeliveryComparison.Summary = w.comparison()
	x.AlreadyFixedSummary = w.alreadyFixed()
	x.PlatformNotes = w.platformNotes()
	x.Headline = w.headline()
	x.Message = w.message()
	x.ClientSummary = w.clientSummary()
	return x
}
