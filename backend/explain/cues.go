package explain

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// invented is a model's answer that names what the plan does not have.
type invented struct {
	reason string
	what   string
}

func (e *invented) Error() string { return "explain: the model's answer names " + e.what }

// cueMention finds where a text names cues: "cue 12", "cues 3 and 4",
// "cues 3, 5 and 9", "cues 10-12" (any dash), "Cue #4"; number finds the
// numbers in such a mention. Both are read-only.
var (
	cueMention = regexp.MustCompile(`(?i)\bcues?\s+#?(\d+(?:\s*(?:,|and|&|or|to|-|–|—)\s*#?\d+)*)`)
	number     = regexp.MustCompile(`\d+`)
)

// checkProse accepts a model's prose only if every action it rewords is
// one of the plan's, and every cue it names is a cue of the file (1 to
// d.CueCount).
func checkProse(p *Prose, d *Draft) error {
	ids := make([]string, len(d.Explanation.Actions))
	for i, a := range d.Explanation.Actions {
		ids[i] = a.ID
	}
	texts := []string{p.Headline, p.Message, p.ClientSummary, p.PlatformNotes, p.AlreadyFixedSummary, p.ComparisonSummary}
	for _, a := range p.Actions {
		if !slices.Contains(ids, a.ID) {
			return &invented{reason: FallbackInventedActions, what: fmt.Sprintf("the action %q, which the plan does not have", a.ID)}
		}
		texts = append(texts, a.Title, a.Detail)
	}
	for _, t := range texts {
		for _, m := range cueMention.FindAllStringSubmatch(t, -1) {
			for _, n := range number.FindAllString(m[1], -1) {
				k, err := strconv.Atoi(n)
				if err != nil || k < 1 || k > d.CueCount {
					return &invented{reason: FallbackInventedCues, what: fmt.Sprintf("cue %s; the file has %d", n, d.CueCount)}
				}
			}
		}
	}
	return nil
}
