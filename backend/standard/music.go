package standard

import (
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeMusic grades the format of DCMP lyrics: a caption of a song opens
// and closes with a music note. A cue whose text starts with a note but
// does not end with one, or the reverse, fails. Notes inside a bracketed
// description ("[♪ soft piano]") and cues of notes alone are fine. A file
// without a single note is not_evaluated: whether it has songs whose
// lyrics went unmarked needs the audio.
func gradeMusic(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var fs []caption.Diagnostic
	noted := false
	for i := range t.Cues {
		text := strings.TrimSpace(t.Cues[i].Text)
		if !hasMusicNote(text) {
			continue
		}
		noted = true
		first, _ := utf8.DecodeRuneInString(text)
		last, _ := utf8.DecodeLastRuneInString(text)
		if isMusicNote(first) != isMusicNote(last) {
			fs = append(fs, cueFinding(t, i, "music_symbol_unbalanced", caption.SeverityError,
				"lyrics open with a music note but do not close with one, or the reverse"))
		}
	}
	if !noted {
		return settle(fs, "no cue has a music note; whether the programme has songs whose lyrics should be marked needs the audio")
	}
	return settle(fs, "")
}

// hasMusicNote reports whether s holds a music note. Two Contains calls
// are much faster than ContainsAny with a non-ASCII set.
func hasMusicNote(s string) bool {
	return strings.Contains(s, "♪") || strings.Contains(s, "♫")
}
