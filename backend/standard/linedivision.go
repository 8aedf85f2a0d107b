package standard

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeLineDivision grades the clear cases of DCMP line division: a line
// that ends on an article (cutting it from its noun) or on a coordinating
// conjunction, when the cue goes on, fails. Whether other breaks follow
// speech pauses and phrases needs a reader, so with no clear fault the
// clause is not_evaluated. The word lists are English; a track declared in
// another language is not checked.
func gradeLineDivision(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	if lang := strings.ToLower(t.Language); caption.LanguageDeclared(lang) && lang != "en" && !strings.HasPrefix(lang, "en-") {
		return notEvaluated("the line-division checks cover English only; the track is declared " + t.Language)
	}
	var fs []caption.Diagnostic
	for i := range t.Cues {
		// Only lines followed by another line matter; the last word is
		// sliced out in place to keep this allocation-free.
		rest, k := t.Cues[i].Text, 0
		for {
			line, next, more := nextLine(rest)
			if !more {
				break
			}
			rest, k = next, k+1
			line = strings.TrimSpace(line)
			sp := strings.LastIndexAny(line, " \t")
			if sp < 0 {
				continue
			}
			if w := line[sp+1:]; isWeakLineEnd(w) {
				fs = append(fs, cueFinding(t, i, "line_break_poor", caption.SeverityError,
					"line %d ends on %q; DCMP never ends a line on an article or conjunction", k, w))
			}
		}
	}
	return settle(fs, "whether line breaks follow speech pauses and keep phrases together needs a reader; only line ends on an article or conjunction were checked")
}

// isWeakLineEnd reports whether a line's last word is an article or a
// coordinating conjunction. Case matters: "Plan A" does not end on "a".
func isWeakLineEnd(w string) bool {
	switch w {
	case "a", "an", "the", "and", "but", "or", "nor":
		return true
	}
	return false
}
