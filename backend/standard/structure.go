package standard

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeStructure grades the structural half of WCAG 1.2.2: captions exist
// and a player can read them. It fails when the reader dropped content
// (error diagnostics), when no cue has text, when a time range is empty or
// reversed, or when the written output does not read back with the same
// cues ([Input.Reparse]; without a read-back the clause cannot pass).
func gradeStructure(cl *ClauseSpec, p *input) outcome {
	var fs []caption.Diagnostic
	for _, d := range p.ReaderDiagnostics {
		if d.Severity == caption.SeverityError {
			d.Message = "reading the source: " + d.Message
			fs = append(fs, d)
		}
	}
	t := p.delivery
	withText := 0
	for i := range t.Cues {
		c := &t.Cues[i]
		if strings.TrimSpace(c.Text) != "" {
			withText++
		}
		if c.EndMs <= c.StartMs {
			fs = append(fs, cueFinding(t, i, caption.CodeInvalidTimestamp, caption.SeverityError,
				"cue ends at %s, not after its start %s", caption.FormatClock(c.EndMs), caption.FormatClock(c.StartMs)))
		}
	}
	if withText == 0 {
		fs = append(fs, trackFinding(caption.CodeNoCues, caption.SeverityError, "the delivery has no cue with text"))
	}
	if p.Reparse == nil {
		fs = append(fs, trackFinding("output_not_reparsable", caption.SeverityError,
			"the written delivery was not read back, so it is not known to be readable"))
		return settle(fs, "")
	}
	for _, d := range p.Reparse.Diagnostics {
		if d.Severity == caption.SeverityError {
			d.Message = "reading the written delivery back: " + d.Message
			fs = append(fs, d)
		}
	}
	if rt := p.Reparse.Track; rt == nil || len(rt.Cues) != len(t.Cues) {
		n := 0
		if rt != nil {
			n = len(rt.Cues)
		}
		fs = append(fs, trackFinding("output_not_reparsable", caption.SeverityError,
			"the written delivery reads back as %d cues, not the %d written", n, len(t.Cues)))
	}
	return settle(fs, "")
}
