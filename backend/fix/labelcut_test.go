package fix

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// A split that must fall inside a two-speaker cue cuts at the speaker
// label, the short turn taking the minimum duration from the other piece,
// rather than a few words into the other speaker's sentence.
func TestSplitAtLabelShortTurn(t *testing.T) {
	t.Parallel()
	all := LimitMaxCharsPerLine | LimitMaxLines | LimitMaxCPS | LimitMinDuration | LimitMaxDuration | LimitMinGap
	tiktok := Targets{MaxCharsPerLine: 25, MaxLines: 2, MaxCPS: 17, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, BalanceLines: true, Suggested: all}
	firm := tiktok
	firm.Suggested = 0
	tests := []struct {
		name string
		tg   Targets
		in   caption.Cue
		want []string
	}{
		{"short turn first, suggested limits", tiktok,
			labelled(1000, 5000, "{Ann:} Yes. {Bob:} I think we should go right now, honestly."),
			[]string{"Ann: Yes.", "Bob: I think we should go\nright now, honestly."}},
		{"short turn last, suggested limits", tiktok,
			labelled(6000, 10000, "{Bob:} I think we should go right now, honestly. {Ann:} Yes."),
			[]string{"Bob: I think we should go\nright now, honestly.", "Ann: Yes."}},
		{"short turn first, enforced limits", firm,
			labelled(1000, 5000, "{Ann:} Yes. {Bob:} I think we should go right now, honestly."),
			[]string{"Ann: Yes.", "Bob: I think we should go\nright now, honestly."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{tt.in}}
			before := cloneForCompare(in)
			res := Apply(in, AutoSplitSentences, tt.tg)
			checkInvariants(t, tt.name, in, before, AutoSplitSentences, res)
			if got := texts(res.Track.Cues); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cues %q\nwant %q", got, tt.want)
			}
			for _, c := range res.Track.Cues {
				if d := c.EndMs - c.StartMs; d < tt.tg.MinDurationMs {
					t.Errorf("cue %q lasts %d ms, under %d", c.Text, d, tt.tg.MinDurationMs)
				}
			}
		})
	}
}

// No line ends on the first word after a speaker label ("Bob: I /
// agree.") while another break fits, even where an enforced width takes
// the cue over MaxLines. A suggested width gives way to MaxLines instead
// (see TestSuggestedWidthKeepsMaxLines).
func TestNoBreakAfterLabelWord(t *testing.T) {
	t.Parallel()
	all := LimitMaxCharsPerLine | LimitMaxLines | LimitMaxCPS | LimitMinDuration | LimitMaxDuration | LimitMinGap
	tiktok := Targets{MaxCharsPerLine: 25, MaxLines: 2, MaxCPS: 17, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, BalanceLines: true, Suggested: all}
	firmWidth := tiktok
	firmWidth.Suggested &^= LimitMaxCharsPerLine
	tests := []struct {
		name    string
		profile Profile
		tg      Targets
		in      caption.Cue
		want    []string
	}{
		{"three turns, layout only", LayoutPreserveBreaks, firmWidth,
			labelled(1000, 7000, "{Ann:} We should go now before it rains. {Bob:} I agree. {Ann:} Then hurry up and grab your coat."),
			[]string{"Ann: We should go now\nbefore it rains.\nBob: I agree.\nAnn: Then hurry up\nand grab your coat."}},
		{"three turns, layout only, suggested width", LayoutPreserveBreaks, tiktok,
			labelled(1000, 7000, "{Ann:} We should go now before it rains. {Bob:} I agree. {Ann:} Then hurry up and grab your coat."),
			[]string{"Ann: We should go now before it rains.\nBob: I agree. Ann: Then hurry up and grab your coat."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{tt.in}}
			before := cloneForCompare(in)
			res := Apply(in, tt.profile, tt.tg)
			checkInvariants(t, tt.name, in, before, tt.profile, res)
			if got := texts(res.Track.Cues); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cues %q\nwant %q", got, tt.want)
			}
		})
	}
}

// A line break inside a katakana run parts a loanword: the cue is split
// at a phrase end instead, where the limits allow.
func TestNoBreakInsideKatakana(t *testing.T) {
	t.Parallel()
	all := LimitMaxCharsPerLine | LimitMaxLines | LimitMaxCPS | LimitMinDuration | LimitMaxDuration | LimitMinGap
	tiktok := Targets{MaxCharsPerLine: 25, MaxLines: 2, MaxCPS: 17, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, BalanceLines: true, Suggested: all}
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"loanwords kept whole", "アメリカンフットボールのチャンピオンシップトーナメントがインターナショナルスタジアムで開催されます",
			[]string{"アメリカンフットボールの\nチャンピオンシップトーナメントが", "インターナショナルスタジアムで開催されます"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Language: "ja", Cues: []caption.Cue{{StartMs: 1000, EndMs: 5000, Text: tt.in}}}
			before := cloneForCompare(in)
			res := Apply(in, AutoSplitSentences, tiktok)
			checkInvariants(t, tt.name, in, before, AutoSplitSentences, res)
			if got := texts(res.Track.Cues); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cues %q\nwant %q", got, tt.want)
			}
		})
	}
}
