package standard

import (
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeMusic grades the format of DCMP lyrics: a caption of a song opens
// and closes with a music note. Each speaker's turn of a cue is read
// without what opens it (a speaker ID on its own line, "NAME:", a dialogue
// dash or ">>") and without bracketed notes at either end, so "(Jack)\n♪
// Over the hills ♪" is lyrics opened and closed with a note. Lyrics that
// open or close with "#", the stand-in for ♪ some CEA-608 files use (and
// dcmp.consistent-markers counts as a music symbol), fail; so do lyrics
// that open with a note but do not close with one, or the reverse. Notes
// inside a bracketed description ("[♪ soft piano]") and cues of notes
// alone are fine. A file without a single note or "#" lyric is
// not_evaluated: whether it has songs whose lyrics went unmarked needs the
// audio.
func gradeMusic(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var fs []caption.Diagnostic
	noted := false
	for i := range t.Cues {
		text := t.Cues[i].Text
		if hasMusicNote(text) {
			noted = true
		} else if !strings.Contains(text, "#") {
			continue
		}
		substitute, unbalanced := false, false
		eachTurn(text, func(turn string) {
			hashed := hashOpens(turn) || hashCloses(turn)
			if !hashed && !hasMusicNote(turn) {
				return
			}
			noted = noted || hashed
			first, _ := utf8.DecodeRuneInString(turn)
			last, _ := utf8.DecodeLastRuneInString(turn)
			switch {
			case hashed:
				substitute = true
			case isMusicNote(first) != isMusicNote(last):
				unbalanced = true
			}
		})
		if substitute {
			fs = append(fs, cueFinding(t, i, "music_symbol_substitute", caption.SeverityError,
				"lyrics are marked with \"#\", the stand-in for ♪ of CEA-608 character sets; DCMP opens and closes each caption of lyrics with a music note"))
		}
		if unbalanced {
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

// hashOpens and hashCloses report whether s opens or closes with a "#"
// standing for a music note: "#" alone or beside a space, where
// teletext-style captions put it, so "(female #1)" and "#1" are not
// music.
func hashOpens(s string) bool  { return s == "#" || strings.HasPrefix(s, "# ") }
func hashCloses(s string) bool { return s == "#" || strings.HasSuffix(s, " #") }

// eachTurn calls fn with each speaker's turn of a cue's text: the lines
// from one speaker change to the next, without the mark that opens the
// turn (a speaker ID on its own line, "NAME:", a dialogue dash or ">>")
// and without spaces or bracketed notes at either end. Lines of bracketed
// notes alone that are not speaker IDs ("[singing]") belong to no turn.
func eachTurn(text string, fn func(turn string)) {
	start, end := -1, -1 // the open turn's span in text
	flush := func() {
		if start >= 0 {
			if turn := trimLabels(text[start:end]); turn != "" {
				fn(turn)
			}
		}
		start, end = -1, -1
	}
	off := 0
	for rest, more := text, true; more; {
		var line string
		lineOff := off
		line, rest, more = nextLine(rest)
		off += len(line) + 1
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if trimLabels(trimmed) == "" {
			speaker := false
			eachLabel(trimmed, func(l label) {
				l.textAfter = strings.TrimSpace(rest) != ""
				speaker = speaker || roleOf(l) != roleSound
			})
			if speaker {
				flush()
			}
			continue
		}
		lead := turnMark(trimmed)
		if lead > 0 {
			flush()
		}
		at := lineOff + strings.Index(line, trimmed)
		if start < 0 {
			start = at + lead
		}
		end = at + len(trimmed)
	}
	flush()
}

// turnMark returns the length of what opens a speaker's turn on a line:
// a dialogue dash or ">>", then a "NAME:" label; 0 when there is none.
func turnMark(line string) int {
	n := len(dashStyle(line))
	rest := strings.TrimLeft(line[n:], " ")
	n = len(line) - len(rest)
	return n + speakerPrefix(rest)
}

// trimLabels returns s without spaces and whole bracketed notes at either
// end: "[sings] ♪ la ♪ (laughs)" is "♪ la ♪".
func trimLabels(s string) string {
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return s
		}
		switch open, close := s[0], s[len(s)-1]; {
		case open == '[' || open == '(':
			closer := byte(']')
			if open == '(' {
				closer = ')'
			}
			j := strings.IndexAny(s[1:], string(closer)+"\n")
			if j < 0 || s[1+j] != closer {
				return s
			}
			s = s[j+2:]
		case close == ']' || close == ')':
			opener := byte('[')
			if close == ')' {
				opener = '('
			}
			j := strings.LastIndexAny(s[:len(s)-1], string(opener)+"\n")
			if j < 0 || s[j] != opener {
				return s
			}
			s = s[:j]
		default:
			return s
		}
	}
}
