package standard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeConsistency grades DCMP's "consistent" element on the features a
// file shows unambiguously: the music symbol (♪, ♫ or #), the dialogue dash
// ("- ", "-", "– ", "— " or ">>"), the brackets around sound labels and
// around speaker names, and the case of sound labels; [roleOf] tells
// names from sounds as the format clauses do. Each feature should
// use one style; every cue using a style other than the feature's most
// common one is a failing finding.
func gradeConsistency(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	feats := []*feature{
		{name: "music symbol"}, {name: "dialogue dash"},
		{name: "sound label brackets"}, {name: "speaker name brackets"},
		{name: "sound label case"},
	}
	music, dash, soundBr, nameBr, soundCase := feats[0], feats[1], feats[2], feats[3], feats[4]
	for i := range t.Cues {
		text := t.Cues[i].Text
		for rest, more := text, true; more; {
			var line string
			line, rest, more = nextLine(rest)
			line = strings.TrimSpace(line)
			if s := musicStyle(line); s != "" {
				music.add(s, i)
			}
			if s := dashStyle(line); s != "" {
				dash.add(s, i)
			}
		}
		eachLabel(text, func(l label) {
			br := "[]"
			if l.open == '(' {
				br = "()"
			}
			switch roleOf(l) {
			case roleSpeaker:
				nameBr.add(br, i)
				return
			case roleEither:
				// A name or a sound: its brackets and case say nothing
				// certain about either feature.
				return
			}
			soundBr.add(br, i)
			switch caseOf(l.content, 2) {
			case caseUpper:
				soundCase.add("capitals", i)
			case caseLower:
				soundCase.add("lower case", i)
			}
		})
	}
	var fs []caption.Diagnostic
	for _, f := range feats {
		fs = append(fs, f.findings(t)...)
	}
	return settle(fs, "")
}

// feature tallies the styles one caption feature uses, in order of first
// use, and the cues using each.
type feature struct {
	name   string
	styles []string
	cues   [][]int
}

func (f *feature) add(style string, cue int) {
	for k, s := range f.styles {
		if s == style {
			if n := len(f.cues[k]); n == 0 || f.cues[k][n-1] != cue {
				f.cues[k] = append(f.cues[k], cue)
			}
			return
		}
	}
	f.styles = append(f.styles, style)
	f.cues = append(f.cues, []int{cue})
}

// findings reports each cue using a style other than the most used one
// (the first used on a tie, so results are deterministic).
func (f *feature) findings(t *caption.Track) []caption.Diagnostic {
	if len(f.styles) < 2 {
		return nil
	}
	major := 0
	for k := range f.styles {
		if len(f.cues[k]) > len(f.cues[major]) {
			major = k
		}
	}
	var fs []caption.Diagnostic
	for k, s := range f.styles {
		if k == major {
			continue
		}
		for _, i := range f.cues[k] {
			fs = append(fs, cueFinding(t, i, "style_inconsistent", caption.SeverityError,
				"%s: this cue uses %s while %d cues use %s", f.name, quote(s), len(f.cues[major]), quote(f.styles[major])))
		}
	}
	return fs
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// musicStyle returns the music symbol a line uses, "" when none. "#" only
// counts at the start or end of a line, where teletext-style captions put
// it, so "(female #1)" is not music.
func musicStyle(line string) string {
	switch {
	case line == "":
		return ""
	case strings.Contains(line, "♪"):
		return "♪"
	case strings.Contains(line, "♫"):
		return "♫"
	case hashOpens(line), hashCloses(line):
		return "#"
	}
	return ""
}

// dashStyle returns the dialogue-dash style a line opens with, "" when
// none. A hyphen directly before a digit is a minus sign, not a dash.
func dashStyle(line string) string {
	switch {
	case strings.HasPrefix(line, ">>"):
		return ">>"
	case strings.HasPrefix(line, "- "):
		return "- "
	case strings.HasPrefix(line, "– "):
		return "– "
	case strings.HasPrefix(line, "— "):
		return "— "
	case strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "--"):
		r, _ := utf8.DecodeRuneInString(line[1:])
		if unicode.IsLetter(r) {
			return "-"
		}
	}
	return ""
}
