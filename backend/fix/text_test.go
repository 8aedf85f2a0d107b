package fix

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

func TestCharsMatchesRules(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "Hello, world!", "two\nlines", "crlf\r\nline", "tab\there", "\x00\x7f", "café", "e\u0301", "🙂👍🏽", "東京", "\xc3("} {
		if got, want := chars(s), rules.Characters(s); got != want {
			t.Errorf("chars(%q) = %d, rules.Characters = %d", s, got, want)
		}
	}
}

func TestGapClass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		left, right string
		want        int
	}{
		{"home.", "Then", gapSentence},
		{"home?", "Then", gapSentence},
		{"home!”", "Then", gapSentence},
		{"(home.)", "Then", gapSentence},
		{"wait…", "What", gapSentence},
		{"wait...", "What", gapSentence},
		{"wait…", "what", gapClause},
		{"Mr.", "Smith", gapWord},
		{"Dr.", "Who", gapWord},
		{"e.g.", "Apples", gapWord},
		{"U.S.", "Army", gapWord},
		{"J.", "Tolkien", gapWord},
		{"approx.", "five", gapWord},
		{"esp.", "when", gapClause},
		{"3.5", "km", gapWord},
		{"well,", "then", gapClause},
		{"so;", "then", gapClause},
		{"note:", "this", gapClause},
		{"word", "word", gapWord},
	}
	for _, tt := range tests {
		if got := gapClass(tt.left, tt.right); got != tt.want {
			t.Errorf("gapClass(%q, %q) = %d, want %d", tt.left, tt.right, got, tt.want)
		}
	}
}

func TestUntidy(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"": false, "a b\nc": false, " a": true, "a ": true, "a  b": true, "a \nb": true,
		"a\n b": true, "a\n\nb": true, "a\tb": true, "a\r\nb": true, "a\u00a0b": false,
	} {
		if got := untidy(s); got != want {
			t.Errorf("untidy(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestRemapSpans(t *testing.T) {
	t.Parallel()
	// "  ab   cd\n\nef " → "ab cd\nef"
	src := "  ab   cd\n\nef "
	ws := tokenize(src, nil)
	got := render(src, ws)
	if got != "ab cd\nef" {
		t.Fatalf("render = %q", got)
	}
	spans := []caption.Span{
		{Start: 2, End: 4, Bold: true},   // "ab"
		{Start: 0, End: 9, Italic: true}, // "  ab   cd"
		{Start: 4, End: 7, Bold: true},   // spaces only: dropped
		{Start: 8, End: 13, Bold: true},  // "d\n\nef"
		{Start: 3, End: 3, Bold: true},   // empty: dropped
	}
	want := []caption.Span{{Start: 0, End: 2, Bold: true}, {Start: 0, End: 5, Italic: true}, {Start: 4, End: 8, Bold: true}}
	if got := remapSpans(spans, ws); !reflect.DeepEqual(got, want) {
		t.Errorf("remapSpans = %+v, want %+v", got, want)
	}
	// The second piece of a split: words "cd" and "ef".
	piece := ws[1:]
	piece[0].brk = false
	if got := render(src, piece); got != "cd\nef" {
		t.Fatalf("piece = %q", got)
	}
	if got, want := remapSpans(spans, piece), []caption.Span{{Start: 0, End: 2, Italic: true}, {Start: 1, End: 5, Bold: true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("piece spans = %+v, want %+v", got, want)
	}
}

func TestWrapAvoidsArticleEnd(t *testing.T) {
	t.Parallel()
	s := "She finally opened the door of the old house"
	ws := tokenize(s, nil)
	f := &fixer{}
	f.wrap(s, ws, 30, 2)
	got := render(s, ws)
	for _, line := range strings.Split(got, "\n") {
		if last := line[strings.LastIndexByte(line, ' ')+1:]; wordClass(last)&classArticle != 0 {
			t.Errorf("line ends on an article: %q", got)
		}
	}
	if got != "She finally opened\nthe door of the old house" {
		t.Errorf("wrap = %q", got)
	}
}

func TestWarnOnlyIsDeepCopy(t *testing.T) {
	t.Parallel()
	line := 1.0
	in := &caption.Track{Version: 1, Cues: []caption.Cue{{
		ID: "1", StartMs: 0, EndMs: 1000, Text: "a", Spans: []caption.Span{{Start: 0, End: 1, Bold: true}},
		Placement: &caption.Placement{Line: &line}, Ext: map[string]json.RawMessage{"vtt": json.RawMessage(`{"x":1}`)},
	}}}
	res := Apply(in, WarnOnly, Targets{})
	c := &res.Track.Cues[0]
	c.Spans[0].Bold = false
	*c.Placement.Line = 2
	c.Ext["vtt"][2] = 'y'
	if !in.Cues[0].Spans[0].Bold || line != 1 || string(in.Cues[0].Ext["vtt"]) != `{"x":1}` {
		t.Fatal("the result shares memory with the input")
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles() {
		if got, err := ParseProfile(string(p)); err != nil || got != p {
			t.Errorf("ParseProfile(%q) = %q, %v", p, got, err)
		}
	}
	if _, err := ParseProfile("nope"); err == nil {
		t.Error("ParseProfile accepted an unknown name")
	}
}
