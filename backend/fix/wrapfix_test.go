package fix

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// No line and no cue ends on a lone "I" while a clean break fits: a
// demonstrative before a conjunction or preposition ("do that / if") is
// a pronoun closing its phrase, a clean break.
func TestLoneIBreak(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s           string
		width, kmax int
		want        string
	}{
		{"I would really not want to do that if I were you, to be honest with you.", 42, 2,
			"I would really not want to do that\nif I were you, to be honest with you."},
		{"You should really not do this if I were you, seriously.", 42, 2, "You should really not do this\nif I were you, seriously."},
		{"We could go there tomorrow if I can get a day off.", 30, 2, "We could go there tomorrow\nif I can get a day off."},
		{"Then I went home", 10, 3, "Then I\nwent home"},
	} {
		if got := wrapAt(tt.s, tt.width, tt.kmax); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 1, MinDurationMs: 500, MinGapMs: 84}
	for _, s := range []string{
		"We could go there tomorrow if I can get a day off.",
		"I would really not want to do that if I were you.",
	} {
		in := &caption.Track{Cues: []caption.Cue{cue("", 0, 5000, s)}}
		for _, p := range []Profile{AutoSplitSentences, AutoSplitCPS} {
			res := Apply(in, p, tg)
			for _, c := range res.Track.Cues {
				if strings.HasSuffix(c.Text, " I") || strings.Contains(c.Text, " I\n") {
					t.Errorf("%s: %q: a piece ends on a lone I", p, c.Text)
				}
				if rules.PoorLineBreak(c.Text) {
					t.Errorf("%s: %q flagged", p, c.Text)
				}
			}
		}
	}
}
