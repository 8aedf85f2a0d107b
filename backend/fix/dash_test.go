package fix

import (
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// A dash opening a line is a speaker's turn only in a dialogue cue, whose
// first line opens with a dash too: a split keeps a dash that opens a
// lone later line (an interruption or aside of one speaker), and says so
// when it drops the dashes of a dialogue.
func TestSplitKeepsPunctuationDash(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, Overlaps: true, EmptyCues: true}
	tests := []struct {
		name     string
		text     string
		want     []string // the first words of the pieces, dashes kept
		wantDrop bool     // the split's message says dashes were dropped
	}{
		{"em dash on the second line", "I was going to tell you about the ferry timetable\n— but never mind, it really does not matter now.",
			[]string{"I", "—"}, false},
		{"hyphen on the second line", "I was going to tell you about the ferry timetable\n- but never mind, it really does not matter now.",
			[]string{"I", "-"}, false},
		{"dialogue", "- Did you see where she went after the market closed?\n- No, I was at the station all afternoon waiting.",
			[]string{"Did", "No,"}, true},
		{"dialogue with joined dashes", "-Did you see where she went after the market closed?\n-No, I was at the station all afternoon waiting.",
			[]string{"Did", "No,"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{cue("1", 1000, 9000, tt.text)}}
			for _, p := range []Profile{AutoSplitSentences, AutoSplitCPS} {
				res := Apply(in, p, tg)
				var first []string
				for _, c := range res.Track.Cues {
					first = append(first, strings.Fields(c.Text)[0])
				}
				if !slices.Equal(first, tt.want) {
					t.Errorf("%s: pieces %q, want first words %q", p, texts(res.Track.Cues), tt.want)
				}
				var split string
				for _, c := range res.Changes {
					if c.Action == ActionSplit {
						split = c.Message
					}
				}
				if split == "" {
					t.Fatalf("%s: no split reported: %+v", p, res.Changes)
				}
				if got := strings.Contains(split, "dialogue dash"); got != tt.wantDrop {
					t.Errorf("%s: split message %q, says dashes dropped: %v, want %v", p, split, got, tt.wantDrop)
				}
			}
		})
	}
}
