package explain

import (
	"fmt"
	"math"
	"strings"

	"github.com/captionqa/captionqa/backend/standard"
)

// maxReasons bounds the clauses a review action spells out.
const maxReasons = 3

// review is the action for the standard's clauses a caption file cannot
// settle (not_evaluated): a person checks them against the video. Its
// effort is watching along, taken as 3 seconds a cue, and at least 5
// minutes.
func review(in *Input) (Action, bool) {
	st := in.Report.Standard
	if st == nil {
		return Action{}, false
	}
	var ids, reasons []string
	for i := range st.Clauses {
		c := &st.Clauses[i]
		if c.Status != standard.StatusNotEvaluated {
			continue
		}
		ids = append(ids, c.ID)
		if len(reasons) < maxReasons {
			reasons = append(reasons, fmt.Sprintf("%s: %s", c.Title, strings.TrimSuffix(c.Reason, ".")))
		}
	}
	if len(ids) == 0 {
		return Action{}, false
	}
	detail := fmt.Sprintf("CaptionQA cannot settle these from the caption file alone. %s.", strings.Join(reasons, "; "))
	if len(ids) > len(reasons) {
		detail += fmt.Sprintf(" And %s more.", plural(len(ids)-len(reasons), "clause"))
	}
	return Action{
		Priority: PriorityReview, Kind: KindReviewManually,
		Title:  fmt.Sprintf("Check %s of %s against the video", plural(len(ids), "clause"), st.Title),
		Detail: detail, Codes: []string{}, CueIndexes: []int{}, Count: len(ids), Clauses: ids,
		EffortMinutes: max(5, int(math.Ceil(float64(in.Report.OutputCues)*3/60))), Owner: ownerQC,
	}, true
}
