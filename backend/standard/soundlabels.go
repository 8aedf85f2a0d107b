package standard

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeSoundLabels grades the format of DCMP sound effects: bracketed and
// lower case except proper nouns. A bracketed label in capitals fails. A
// label starting with a capital may open with a proper noun ("[Jack
// laughs]"), which needs a reader, so such labels leave the clause
// not_evaluated; all-lower-case labels pass. A file with no bracketed
// label at all is not_evaluated too: its sounds may be described some
// other way ("*THUNDER*") or not at all, which only the audio tells.
func gradeSoundLabels(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var fs []caption.Diagnostic
	labelled, capitalised, first := 0, 0, -1
	for i := range t.Cues {
		eachLabel(t.Cues[i].Text, func(l label) {
			if l.open != '[' {
				return
			}
			labelled++
			switch caseOf(l.content, 2) {
			case caseUpper:
				fs = append(fs, cueFinding(t, i, "sound_label_case", caption.SeverityError,
					"sound label [%s] is in capitals; DCMP writes sound effects in lower case", l.content))
			case caseMixed:
				if r, _ := utf8.DecodeRuneInString(l.content); unicode.IsUpper(r) {
					capitalised++
					if first < 0 {
						first = i
					}
				}
			}
		})
	}
	reason := ""
	if labelled == 0 {
		reason = "no cue has a bracketed sound label; whether sounds are described, and how, needs the audio"
	}
	if capitalised > 0 {
		reason = fmt.Sprintf("%d bracketed labels (the first at cue index %d) start with a capital; whether that is a proper noun needs a reader", capitalised, first)
	}
	return settle(fs, reason)
}
