package caption

import (
	"slices"
	"testing"
)

// TestVoiceLabels: where a plain-text delivery names each speaker of a
// cue, as byte offsets of the cue's text.
func TestVoiceLabels(t *testing.T) {
	t.Parallel()
	v := func(start, end int, voice string) Span { return Span{Start: start, End: end, Voice: voice} }
	tests := []struct {
		name string
		cue  Cue
		want []VoiceLabel
	}{
		{"no voice", Cue{Text: "Hi.", Spans: []Span{{Start: 0, End: 2, Italic: true}}}, nil},
		{"the cue's voice", Cue{Text: "Hi.", Voice: "Ann"}, []VoiceLabel{{0, "Ann", false}}},
		{"no text, no label", Cue{Text: " \n", Voice: "Ann"}, nil},
		{"already labelled, in any case", Cue{Text: "ANN: Hi.", Voice: "Ann"}, nil},
		{"a name that only starts the text is no label", Cue{Text: "Annie said hi.", Voice: "Ann"}, []VoiceLabel{{0, "Ann", false}}},
		{"a speaker a line", Cue{Text: "Where?\nOut.", Spans: []Span{v(0, 6, "Ann"), v(7, 11, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {7, "Bo", false}}},
		{"mid-line, at the speaker's first word", Cue{Text: "Where? Out.", Spans: []Span{v(0, 6, "Ann"), v(6, 11, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {7, "Bo", false}}},
		{"a span starting inside a word labels the word", Cue{Text: "Where? Out.", Spans: []Span{v(0, 6, "Ann"), v(8, 11, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {7, "Bo", false}}},
		{"two voices in one word: the first", Cue{Text: "Out.", Spans: []Span{v(0, 1, "Ann"), v(1, 4, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"two voices in one word, the second after its first letters", Cue{Text: "Wait!", Spans: []Span{v(0, 2, "Ann"), v(2, 5, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"voices touching after a '!': the second labelled there, after a space", Cue{Text: "Wait!What?", Spans: []Span{v(0, 5, "Ann"), v(5, 10, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {5, "Bo", true}}},
		{"voices touching after a '?'", Cue{Text: "Who?Me.", Spans: []Span{v(0, 4, "Ann"), v(4, 7, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {4, "Bo", true}}},
		{"voices touching after a closing quote", Cue{Text: "\"Go.\"Why?", Spans: []Span{v(0, 5, "Ann"), v(5, 10, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {5, "Bo", true}}},
		{"voices touching at a hyphen: a slip", Cue{Text: "Well-known.", Spans: []Span{v(0, 5, "Ann"), v(5, 11, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"voices touching at an apostrophe: a slip", Cue{Text: "Don’t.", Spans: []Span{v(0, 4, "Ann"), v(4, 6, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"voices touching after a Chinese full stop", Cue{Text: "好。走", Spans: []Span{v(0, 2, "Ann"), v(2, 3, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {6, "Bo", true}}},
		{"a touching voice in an unlabelled run", Cue{Text: "So Wait!What?", Voice: "Ann", Spans: []Span{v(3, 8, "Ann"), v(8, 13, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}, {8, "Bo", true}}},
		{"a touching voice already labelled", Cue{Text: "Wait!Bo: What?", Spans: []Span{v(0, 5, "Ann"), v(5, 14, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"the cue's speaker going on is not labelled again", Cue{Text: "Hi there\nyou.", Voice: "Ann", Spans: []Span{v(0, 2, "Ann"), v(9, 13, "Ann")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"a span of white space starts no one", Cue{Text: "Hi.\n Yo.", Voice: "Ann", Spans: []Span{v(3, 5, "Bo")}},
			[]VoiceLabel{{0, "Ann", false}}},
		{"spans out of order", Cue{Text: "Where?\nOut.", Spans: []Span{v(7, 11, "Bo"), v(0, 6, "Ann")}},
			[]VoiceLabel{{0, "Ann", false}, {7, "Bo", false}}},
		{"offsets count code points", Cue{Text: "Olá? Não.", Spans: []Span{v(0, 4, "Ana"), v(5, 9, "Rui")}},
			[]VoiceLabel{{0, "Ana", false}, {6, "Rui", false}}},
		{"a speaker already labelled still speaks", Cue{Text: "Bo: Out. Ann: No.", Spans: []Span{v(0, 8, "Bo"), v(9, 17, "Ann")}},
			nil},
		{"back to an earlier speaker", Cue{Text: "A? B. A!", Spans: []Span{v(0, 2, "Ann"), v(3, 5, "Bo"), v(6, 8, "Ann")}},
			[]VoiceLabel{{0, "Ann", false}, {3, "Bo", false}, {6, "Ann", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.cue.VoiceLabels(nil)
			if !slices.Equal(got, tt.want) {
				t.Errorf("VoiceLabels = %v; want %v", got, tt.want)
			}
			if has := tt.cue.HasVoice(); !has && len(got) > 0 {
				t.Errorf("HasVoice is false with labels %v", got)
			}
		})
	}
}
