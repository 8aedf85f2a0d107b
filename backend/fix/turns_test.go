package fix

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// labelled is a cue whose text marks the engine's speaker labels in
// braces ("{Alice:} Where were you?"): the braces go, and each label gets
// the span the engine gives it ([caption.Span.Label]).
func labelled(start, end int64, marked string) caption.Cue {
	var b strings.Builder
	var spans []caption.Span
	at := 0 // code points written
	for _, r := range marked {
		switch r {
		case '{':
			spans = append(spans, caption.Span{Start: at, Label: true})
		case '}':
			spans[len(spans)-1].End = at
		default:
			b.WriteRune(r)
			at++
		}
	}
	return caption.Cue{StartMs: start, EndMs: end, Text: b.String(), Spans: spans}
}

// texts returns the texts of cues.
func texts(cues []caption.Cue) []string {
	out := make([]string, len(cues))
	for i := range cues {
		out[i] = cues[i].Text
	}
	return out
}

// endsOnLabel returns the first line of text that ends on one of the
// speaker labels, "" when none does.
func endsOnLabel(text string, labels []string) string {
	for line := range strings.SplitSeq(text, "\n") {
		for _, l := range labels {
			if strings.HasSuffix(line, l) {
				return line
			}
		}
	}
	return ""
}

// A speaker label the engine wrote into the text is a speaker change, as
// a dialogue dash at a line start is: a cue is split and re-wrapped there
// first, no line ends on a label, and a piece that starts at a change of
// speaker keeps its label.
func TestSpeakerLabelTurns(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84}
	tests := []struct {
		name    string
		profile Profile
		tg      Targets
		in      caption.Cue
		want    []string
	}{
		{"split at the speaker change when the speakers cannot each have lines", AutoSplitSentences, tg,
			labelled(0, 4000, "{Alice:} If you had only said where you were going {Bob:} I did, twice."),
			[]string{"Alice: If you had only said\nwhere you were going", "Bob: I did, twice."}},
		{"split at the speaker change, not the sentence end nearer the middle", AutoSplitSentences, tg,
			labelled(0, 6500, "{Alice:} We waited at the pier for hours. Nobody came. Where were you? {Bob:} Out at the harbour with the others."),
			[]string{"Alice: We waited at the pier for hours.\nNobody came. Where were you?", "Bob: Out at the harbour with the others."}},
		{"no piece is a label alone", AutoSplitSentences, tg,
			labelled(0, 9000, "{Alice:} Where did you go after the market closed? {Bob:} Home."),
			[]string{"Alice: Where did you go", "after the market closed?", "Bob: Home."}},
		{"a split piece keeps its label", AutoSplitSentences, tg,
			labelled(0, 6000, "{Alice:} Where were you all night long, and why did nobody answer? {Bob:} Out on the pier, where the phones never find anyone."),
			[]string{"Alice: Where were you all night long,\nand why did nobody answer?", "Bob: Out on the pier,\nwhere the phones never find anyone."}},
		{"re-wrapped with each speaker on a line", AutoSplitSentences, tg,
			labelled(0, 3000, "{Alice:} You never said where you were {Bob:} Out. At the harbour."),
			[]string{"Alice: You never said where you were\nBob: Out. At the harbour."}},
		{"a break added inside an over-long line goes before the label", LayoutPreserveBreaks, tg,
			labelled(0, 3000, "{Alice:} You never said where you were {Bob:} Out. At the harbour."),
			[]string{"Alice: You never said where you were\nBob: Out. At the harbour."}},
		{"speakers share a line when they cannot each have one and the cue cannot be split", AutoSplitSentences, tg,
			labelled(0, 3000, "{Alice:} So? {Bob:} So we wait here until the boat comes in."),
			[]string{"Alice: So? Bob: So we wait here\nuntil the boat comes in."}},
		{"a name of several words stays whole", AutoSplitSentences, Targets{MaxCharsPerLine: 20, MaxLines: 3},
			labelled(0, 4000, "{Mary Ann Lee:} Hello. {Tom:} Hi there."),
			[]string{"Mary Ann Lee: Hello.\nTom: Hi there."}},
		{"a balanced two-speaker cue keeps its break", AutoSplitSentences, Targets{MaxCharsPerLine: 42, MaxLines: 2, BalanceLines: true},
			labelled(0, 4000, "{Alice:} Where were you?\n{Bob:} Out."),
			[]string{"Alice: Where were you?\nBob: Out."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{tt.in}}
			before := cloneForCompare(in)
			res := Apply(in, tt.profile, tt.tg)
			checkInvariants(t, tt.name, in, before, tt.profile, res)
			got := texts(res.Track.Cues)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cues %q\nwant %q", got, tt.want)
			}
			var labels []string
			for _, sp := range tt.in.Spans {
				labels = append(labels, string([]rune(tt.in.Text)[sp.Start:sp.End]))
			}
			for _, text := range got {
				if line := endsOnLabel(text, labels); line != "" {
					t.Errorf("line %q ends on a speaker label", line)
				}
				if tt.tg.MaxCharsPerLine > 0 && tt.profile != LayoutPreserveBreaks {
					for line := range strings.SplitSeq(text, "\n") {
						if utf8.RuneCountInString(line) > tt.tg.MaxCharsPerLine {
							t.Errorf("line %q over %d characters", line, tt.tg.MaxCharsPerLine)
						}
					}
				}
			}
		})
	}
}

// Only a span the engine marks as a label makes a speaker label, and only
// when it covers whole words ending in ':'; text that reads like one
// ("Note:", "10:30", "Chapter 2:") never does.
func TestMarkSpeakers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		marked  string
		speaker []int // words that open a label
		held    []int // words with no break or cut before them
	}{
		{"{Alice:} Out where? {Bob:} The pier.", []int{0, 3}, []int{1, 4}},
		{"{Mary Ann:} Hi.", []int{0}, []int{1, 2}},
		{"Note: the ferry leaves at 10:30. Chapter 2: the pier.", nil, nil},
		{"{Alice:} Note: the ferry leaves at 10:30. Chapter 2: the pier.", []int{0}, []int{1}},
		{"{Alice} Hi.", nil, nil},         // no colon: not as the engine writes a label
		{"{Ali}ce: Hi.", nil, nil},        // part of a word
		{"Hi {Bob: the} pier.", nil, nil}, // more than the label
		{"Hi. {Bob:}", []int{1}, nil},
	}
	for _, tt := range tests {
		c := labelled(0, 1000, tt.marked)
		ws := tokenize(c.Text, nil)
		if got := hasSpeakerLabel(c.Spans); got != strings.Contains(tt.marked, "{") {
			t.Errorf("%q: hasSpeakerLabel = %v", tt.marked, got)
		}
		markSpeakers(c.Text, ws, c.Spans)
		var speaker, held []int
		for k, w := range ws {
			if w.speaker {
				speaker = append(speaker, k)
			}
			if w.held {
				held = append(held, k)
			}
		}
		if !reflect.DeepEqual(speaker, tt.speaker) || !reflect.DeepEqual(held, tt.held) {
			t.Errorf("%q: speaker %v held %v; want %v and %v", tt.marked, speaker, held, tt.speaker, tt.held)
		}
	}
}
