package explain

import (
	"math"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

// Score rates a delivery from 0 (unusable) to 100 (nothing to do):
//
//	100 − 40 if any problem blocks it
//	    − 40 × the share of its cues with a blocking problem
//	    − 15 × the share of its cues with a suggestion
//	    −  5 × the share of the standard's graded clauses that fail
//
// rounded to a whole number. A blocking problem is a remaining finding of
// severity error; a suggestion one of severity warning, or one of
// suggestions. Findings a list left out count one cue each, and file-wide
// findings one cue. So a ready delivery with no suggestion scores 100, a
// ready one never scores below 80, one that needs attention never above
// 60. Only the upload-ready delivery is graded against a standard; its
// clause share counts for both deliveries.
func Score(rep *engine.Report, suggestions []caption.Diagnostic, suggestionsOmitted int, clauseShare float64) float64 {
	cues := max(rep.OutputCues, 1)
	blocking, suggested := affected{cues: map[int]bool{}}, affected{cues: map[int]bool{}}
	for i := range rep.Remaining {
		d := &rep.Remaining[i]
		if d.Severity == caption.SeverityError {
			blocking.add(d)
		} else {
			suggested.add(d)
		}
	}
	severity := map[string]caption.Severity{}
	for _, d := range rep.Remaining {
		severity[d.Code] = d.Severity
	}
	for _, o := range rep.Omitted {
		if o.List != engine.ListRemaining {
			continue
		}
		if severity[o.Code] == caption.SeverityError {
			blocking.extra += o.Count
		} else {
			suggested.extra += o.Count
		}
	}
	for i := range suggestions {
		suggested.add(&suggestions[i])
	}
	suggested.extra += suggestionsOmitted
	s := 100 - 40*blocking.share(cues) - 15*suggested.share(cues) - 5*clauseShare
	if blocking.n() > 0 {
		s -= 40
	}
	return math.Round(math.Max(0, s))
}

// affected counts the cues some findings touch.
type affected struct {
	cues  map[int]bool
	extra int
}

func (a *affected) add(d *caption.Diagnostic) {
	if d.CueIndex != nil {
		a.cues[*d.CueIndex] = true
	} else {
		a.extra++
	}
}

func (a *affected) n() int { return len(a.cues) + a.extra }

func (a *affected) share(cues int) float64 { return math.Min(1, float64(a.n())/float64(cues)) }

// clauseShare is the share of the standard's graded (pass or fail)
// clauses that fail; 0 without a standard.
func clauseShare(rep *engine.Report) float64 {
	st := rep.Standard
	if st == nil || st.Summary.Pass+st.Summary.Fail == 0 {
		return 0
	}
	return float64(st.Summary.Fail) / float64(st.Summary.Pass+st.Summary.Fail)
}
