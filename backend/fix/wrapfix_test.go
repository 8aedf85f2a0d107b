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

// A break at a sentence end with one short sentence below is good
// practice: the fixes make it when nothing better fits, and the
// line_unbalanced rule agrees; a top-heavy break elsewhere stays flagged.
func TestSentenceBreakAgrees(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MinDurationMs: 833, MinGapMs: 84, BalanceLines: true}
	for _, tt := range []struct {
		in, want string
		poor     bool // of want
	}{
		{"Lately I only watch Netflix dramas. So good!", "Lately I only watch Netflix dramas.\nSo good!", false},
		{"这个话题非常重要，因为它关系到每个人的健康！\n你们怎么看？", "这个话题非常重要，因为它关系到每个人的健康！\n你们怎么看？", false},
		{"最近はNetflixのドラマばかり見ています。\n本当に面白いです！", "最近はNetflixのドラマばかり見ています。\n本当に面白いです！", false},
		{"The harbour lights were already on when we\nleft.", "The harbour lights\nwere already on when we left.", false},
	} {
		in := &caption.Track{Cues: []caption.Cue{cue("", 0, 3000, tt.in)}}
		res := Apply(in, AutoSplitSentences, tg)
		var got []string
		for _, c := range res.Track.Cues {
			got = append(got, c.Text)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
		flagged := len(rules.LineUnbalanced{}.Check(res.Track, rules.Params{})) > 0
		if flagged != tt.poor || rules.PoorLineBreak(tt.want) != tt.poor {
			t.Errorf("%q: rule flags %v, PoorLineBreak %v, want %v", tt.want, flagged, rules.PoorLineBreak(tt.want), tt.poor)
		}
	}
	// Not two whole sentences: still top-heavy.
	for _, text := range []string{
		"Lately I only watch Netflix dramas at home.\nSo good",
		"Lately I only watch Netflix dramas at home\nSo good!",
		"It was approx. a mile away from the harbour.\nfive.",
	} {
		if !rules.PoorLineBreak(text) {
			t.Errorf("%q: not flagged", text)
		}
	}
}

// A suggested width gives way to MaxLines (#29 point 8): a cue within
// MaxLines gains no line past it for a line too long, which would trade a
// problem the delivery has too for one it has not. The long line is
// shared out over the lines the cue may have, as little over the width as
// those need and further where that spares a bad break ("at the /
// station"). An enforced width still takes the lines it needs.
func TestSuggestedWidthKeepsMaxLines(t *testing.T) {
	t.Parallel()
	all := LimitMaxCharsPerLine | LimitMaxLines | LimitMaxCPS | LimitMinDuration | LimitMaxDuration | LimitMinGap
	aided := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, BalanceLines: true, Suggested: all}
	firm := aided
	firm.Suggested &^= LimitMaxCharsPerLine | LimitMaxLines
	fox := "The quick brown fox jumps over the lazy dog while the farmer watches from the barn."
	station := "I told you that I would be there at the station before nine o'clock in the morning."
	tests := []struct {
		name string
		tg   Targets
		in   string
		want string
	}{
		{"no two lines of 42", aided, fox, "The quick brown fox jumps over the lazy dog\nwhile the farmer watches from the barn."},
		{"wider for a clean break", aided, station, "I told you that I would be there at the station\nbefore nine o'clock in the morning."},
		{"no line to spare", aided, "Short line.\n" + fox, "Short line.\n" + fox},
		{"already over MaxLines", aided, "One.\nTwo.\n" + fox, "One.\nTwo.\nThe quick brown fox jumps\nover the lazy dog\nwhile the farmer watches from the barn."},
		{"enforced width", firm, fox, "The quick brown fox jumps\nover the lazy dog\nwhile the farmer watches from the barn."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{cue("1", 1000, 5000, tt.in)}}
			before := cloneForCompare(in)
			res := Apply(in, LayoutPreserveBreaks, tt.tg)
			checkInvariants(t, tt.name, in, before, LayoutPreserveBreaks, res)
			if got := res.Track.Cues[0].Text; got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}
