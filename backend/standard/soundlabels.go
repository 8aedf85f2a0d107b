package standard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeSoundLabels grades the format of DCMP sound effects: in brackets,
// lower case except proper nouns. Labels are told from speaker IDs by
// [roleOf], as dcmp.consistent-markers tells them, so a sound both clauses
// see is judged by both. A sound label in parentheses fails, as does one
// in capitals. A label starting with a capital may open with a proper
// noun ("[Jack laughs]"), and one in parentheses and capitals above speech
// may be a speaker's name ("(JACK)"); both need a reader, so they leave
// the clause not_evaluated; all-lower-case bracketed labels pass. A file
// with no sound label at all is not_evaluated too: its sounds may be
// described some other way ("*THUNDER*") or not at all, which only the
// audio tells.
func gradeSoundLabels(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var fs []caption.Diagnostic
	labelled := 0
	var capitalised, either []int // cue of each unsettled label
	for i := range t.Cues {
		eachLabel(t.Cues[i].Text, func(l label) {
			switch roleOf(l) {
			case roleSpeaker:
				if l.open == '(' {
					return
				}
				// A name in brackets is DCMP's inappropriate "[Jack]", or a
				// sound opening with a proper noun: the case check below
				// leaves it to a reader.
			case roleEither:
				either = append(either, i)
				return
			}
			labelled++
			shown := string(l.open) + l.content + closing(l.open)
			if l.open == '(' {
				fs = append(fs, cueFinding(t, i, "sound_label_brackets", caption.SeverityError,
					"sound label %s is in parentheses; DCMP writes sound effects in brackets and keeps parentheses for speaker IDs", shown))
			}
			switch caseOf(l.content, 2) {
			case caseUpper:
				fs = append(fs, cueFinding(t, i, "sound_label_case", caption.SeverityError,
					"sound label %s is in capitals; DCMP writes sound effects in lower case", shown))
			case caseMixed:
				if r, _ := utf8.DecodeRuneInString(l.content); unicode.IsUpper(r) {
					capitalised = append(capitalised, i)
				}
			}
		})
	}
	var reasons []string
	if len(either) > 0 {
		reasons = append(reasons, fmt.Sprintf("%d labels in parentheses and capitals on a line of their own above speech (the first at cue index %d) may be speaker names or sound effects, which needs a reader", len(either), either[0]))
	}
	if len(capitalised) > 0 {
		reasons = append(reasons, fmt.Sprintf("%d sound labels (the first at cue index %d) start with a capital; whether that is a proper noun needs a reader", len(capitalised), capitalised[0]))
	}
	if labelled == 0 && len(either) == 0 {
		reasons = append(reasons, "no cue has a sound label; whether sounds are described, and how, needs the audio")
	}
	return settle(fs, strings.Join(reasons, "; "))
}
