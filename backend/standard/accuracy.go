package standard

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeAccuracy grades FCC 79.1(j)(2)(i). Whether the words are the words
// spoken needs the audio, so the clause is never settled (and its
// catalogue entry is NeverPass as well). What the file does show is listed
// as information: cues without text, doubled spaces (legibility asks for
// proper word spacing) and placeholders such as "[inaudible]".
func gradeAccuracy(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var fs []caption.Diagnostic
	for i := range t.Cues {
		text := t.Cues[i].Text
		if strings.TrimSpace(text) == "" {
			fs = append(fs, cueFinding(t, i, "empty_cue", caption.SeverityInfo, "the cue has no text"))
			continue
		}
		if strings.Contains(text, "  ") {
			fs = append(fs, cueFinding(t, i, "doubled_space", caption.SeverityInfo, "the text has a doubled space"))
		}
		for _, l := range labels(text) {
			if isPlaceholder(l.content) {
				fs = append(fs, cueFinding(t, i, "placeholder_text", caption.SeverityInfo,
					"%q marks words that were not transcribed", string(l.open)+l.content+closing(l.open)))
				break
			}
		}
	}
	o := notEvaluated(cl.Reason)
	o.findings = fs
	return o
}

// isPlaceholder reports whether a label stands for speech that was not
// transcribed.
func isPlaceholder(content string) bool {
	c := strings.ToLower(content)
	for _, w := range []string{"inaudible", "unintelligible", "indiscernible", "indistinct", "unclear", "?"} {
		if strings.Contains(c, w) {
			return true
		}
	}
	return false
}

func closing(open rune) string {
	if open == '(' {
		return ")"
	}
	return "]"
}
