package standard

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeLanguage grades WCAG 3.1.1 on the output file. TTML (xml:lang on
// <tt>) and the JSON IR carry a language: a real tag passes, none or "und"
// fails. SRT and WebVTT have no language a player reads (a WebVTT
// "Language:" header is not standard), so the language must be set where
// the file is used, and the clause is not_evaluated.
func gradeLanguage(cl *ClauseSpec, p *input) outcome {
	switch f := strings.ToLower(p.OutputFormat); f {
	case "ttml", "json":
		if caption.LanguageDeclared(p.output.Language) {
			return passed()
		}
		return settle([]caption.Diagnostic{trackFinding("missing_language_tag", caption.SeverityError,
			"the %s output declares no language (it is written as \"und\"); set the track language", f)}, "")
	case "":
		return notEvaluated("the output format is not known, so whether it declares a language is not known")
	default:
		return notEvaluated(fmt.Sprintf("the %s format carries no language a player reads; set it on the player or track (for example <track srclang> or the platform's language field)", f))
	}
}
