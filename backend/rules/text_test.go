package rules

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestReadingSpeedHigh(t *testing.T) {
	t.Parallel()
	runRuleCases(t, ReadingSpeedHigh{}, []rulecase{
		// 20 characters in 1 s is exactly 20 cps.
		{name: "at limit passes", limit: 20, track: track(cue(0, 1000, strings.Repeat("a", 20)))},
		{name: "line break not counted", limit: 20, track: track(cue(0, 1000, strings.Repeat("a", 10)+"\n"+strings.Repeat("b", 10)))},
		{name: "over", limit: 20, track: track(cue(0, 1000, "ok"), cue(1000, 2000, strings.Repeat("a", 21))),
			want: []want{{cue: 1, value: 21, msg: "reading speed 21.0 characters per second, above the 20 limit"}}},
		// 47 characters in 2 s is 23.5 cps; 70 in 3 s is 23.333 → 23.3.
		{name: "rounded to 0.1", limit: 20, track: track(cue(0, 2000, strings.Repeat("a", 47)), cue(3000, 6000, strings.Repeat("a", 70))),
			want: []want{{cue: 0, value: 23.5, msg: "23.5"}, {cue: 1, value: 23.3, msg: "23.3"}}},
		// 201 characters in 10.02 s is 20.06 cps, 20.1 rounded: reported.
		{name: "just over after rounding", limit: 20, track: track(cue(0, 10020, strings.Repeat("a", 201))),
			want: []want{{cue: 0, value: 20.1}}},
		// 401 characters in 20.02 s is 20.03 cps, 20.0 rounded: passes.
		{name: "rounds down to limit", limit: 20, track: track(cue(0, 20020, strings.Repeat("a", 401)))},
		{name: "fractional limit", limit: 17.5, track: track(cue(0, 1000, strings.Repeat("a", 18))),
			want: []want{{cue: 0, value: 18, msg: "above the 17.5 limit"}}},
		{name: "empty cue ignored", limit: 20, track: track(cue(0, 0, ""))},
		{name: "text without duration", limit: 20, track: track(cue(1000, 1000, "Hi")),
			want: []want{{cue: 0, noValue: true, msg: "no duration"}}},
		{name: "graphemes not bytes", limit: 4, track: track(cue(0, 1000, "café"))},
	})
}

func TestPresentationRateHigh(t *testing.T) {
	t.Parallel()
	runRuleCases(t, PresentationRateHigh{}, []rulecase{
		// 4 words in 1.5 s is 160 wpm.
		{name: "at limit passes", limit: 160, track: track(cue(0, 1500, "one two three four"))},
		{name: "over", limit: 160, track: track(cue(0, 1500, "one two three four"), cue(2000, 3000, "JOHN: one two")),
			want: []want{{cue: 1, value: 180, msg: "180.0 words per minute, above the 160 limit"}}},
		{name: "rounded", limit: 160, track: track(cue(0, 1400, "one two three four")),
			want: []want{{cue: 0, value: 171.4}}},
		{name: "no words", limit: 160, track: track(cue(0, 100, "- ... >>"))},
		{name: "no duration", limit: 160, track: track(cue(0, 0, "hi")),
			want: []want{{cue: 0, noValue: true}}},
	})
}

func TestTooManyLines(t *testing.T) {
	t.Parallel()
	runRuleCases(t, TooManyLines{}, []rulecase{
		{name: "one line", limit: 2, track: track(cue(0, 1000, "a"))},
		{name: "at limit passes", limit: 2, track: track(cue(0, 1000, "a\nb"))},
		{name: "empty", limit: 2, track: track(cue(0, 1000, ""))},
		{name: "three", limit: 2, track: track(cue(0, 1000, "a"), cue(1000, 2000, "a\nb\nc")),
			want: []want{{cue: 1, value: 3, msg: "3 lines, above the 2 line limit"}}},
		{name: "blank line counts", limit: 2, track: track(cue(0, 1000, "a\n\nb")),
			want: []want{{cue: 0, value: 3}}},
	})
}

func TestLineTooLong(t *testing.T) {
	t.Parallel()
	l42, l43, l45 := strings.Repeat("x", 42), strings.Repeat("y", 43), strings.Repeat("z", 45)
	runRuleCases(t, LineTooLong{}, []rulecase{
		{name: "at limit passes", limit: 42, track: track(cue(0, 1000, l42+"\n"+l42))},
		{name: "accents count as graphemes", limit: 42, track: track(cue(0, 1000, strings.Repeat("e\u0301", 42)))},
		{name: "second line too long", limit: 42, track: track(cue(0, 1000, "short"), cue(1000, 2000, l42+"\n"+l43)),
			want: []want{{cue: 1, value: 43, msg: "line 2 of the cue has 43 characters, above the 42 limit"}}},
		{name: "longest of several", limit: 42, track: track(cue(0, 1000, l43+"\n"+l45)),
			want: []want{{cue: 0, value: 45, msg: "line 2 of the cue has 45 characters, above the 42 limit (2 lines are too long)"}}},
		{name: "first line", limit: 42, track: track(cue(0, 1000, l45+"\nok")),
			want: []want{{cue: 0, value: 45, msg: "line 1 "}}},
		{name: "cjk", limit: 16, track: track(cue(0, 1000, strings.Repeat("字", 17))),
			want: []want{{cue: 0, value: 17}}},
	})
}

func TestEmptyCue(t *testing.T) {
	t.Parallel()
	runRuleCases(t, EmptyCue{}, []rulecase{
		{name: "text", track: track(cue(0, 1000, "a"))},
		{name: "text after spaces", track: track(cue(0, 1000, " \n é"))},
		{name: "cjk", track: track(cue(0, 1000, "字"))},
		{name: "empty", track: track(cue(0, 1000, "a"), cue(1000, 2000, "")),
			want: []want{{cue: 1, msg: "no visible text"}}},
		{name: "white space", track: track(cue(0, 1000, " \n\t\u00a0\u3000")),
			want: []want{{cue: 0}}},
		{name: "zero-width characters", track: track(cue(0, 1000, "\u200b\ufeff\u200d")),
			want: []want{{cue: 0}}},
	})
}

func TestInvalidMarkup(t *testing.T) {
	t.Parallel()
	runRuleCases(t, InvalidMarkup{}, []rulecase{
		{name: "plain", track: track(cue(0, 1000, "Hello"))},
		{name: "comparisons and hearts", track: track(cue(0, 1000, "a < b and c > d <3 <- x <=y"))},
		{name: "unknown tag-like text", track: track(cue(0, 1000, "<html> is not caption markup"))},
		{name: "single dash arrow", track: track(cue(0, 1000, "a -> b"))},
		{name: "unclosed known tag name", track: track(cue(0, 1000, "the <b word\ngoes on>"))},
		{name: "braces without backslash", track: track(cue(0, 1000, "{sic}"))},
		{name: "arrow, which writers make safe", track: track(cue(0, 1000, "a --> b"))},
		{name: "timing line as text", track: track(cue(0, 1000, "00:00:01,000 --> 00:00:02,000"))},
		{name: "tag after an arrow", track: track(cue(0, 1000, "a --> <i>b")),
			want: []want{{cue: 0, msg: `"<i>"`}}},
		{name: "closing italic", track: track(cue(0, 1000, "Hello</i>")),
			want: []want{{cue: 0, msg: `"</i>"`}}},
		{name: "upper case bold", track: track(cue(0, 1000, "<B>Hi")),
			want: []want{{cue: 0, msg: `"<B>"`}}},
		{name: "vtt class", track: track(cue(0, 1000, "<c.yellow>Hi")),
			want: []want{{cue: 0, msg: `"<c.yellow>"`}}},
		{name: "font with attributes", track: track(cue(0, 1000, `<font color="red">Hi`)),
			want: []want{{cue: 0, msg: `<font color=`}}},
		{name: "self-closing br", track: track(cue(0, 1000, "a<br/>b")),
			want: []want{{cue: 0, msg: "<br/>"}}},
		{name: "ass override", track: track(cue(0, 1000, `{\an8}Top`)),
			want: []want{{cue: 0, msg: `ASS override "{\\an8}"`}}},
		{name: "unterminated ass override", track: track(cue(0, 1000, `x {\an`)),
			want: []want{{cue: 0, msg: `"{\\an"`}}},
	})
}

func TestLineUnbalanced(t *testing.T) {
	t.Parallel()
	runRuleCases(t, LineUnbalanced{}, []rulecase{
		{name: "good break", track: track(cue(0, 1000, "I went down to the river\nand sat by the water."))},
		{name: "one line", track: track(cue(0, 1000, "I went to the"))},
		{name: "three lines", track: track(cue(0, 1000, "one of\nthe\nthree"))},
		{name: "punctuation after the word", track: track(cue(0, 1000, "Where did it come in,\nthen, if not here?"))},
		{name: "dialogue", track: track(cue(0, 1000, "- Do you want to go to the\n- No."))},
		{name: "article at end", track: track(cue(0, 1000, "ok"), cue(1000, 2000, "We walked into the\nold house.")),
			want: []want{{cue: 1, msg: `ends with "the"`}}},
		{name: "capitalised conjunction", track: track(cue(0, 1000, "He said yes AND\nshe said no.")),
			want: []want{{cue: 0, msg: `"AND"`}}},
		{name: "auxiliary", track: track(cue(0, 1000, "I think we should\ngo home now.")),
			want: []want{{cue: 0, msg: `"should"`}}},
		{name: "long conjunction", track: track(cue(0, 1000, "He stayed, although\nhe was tired.")),
			want: []want{{cue: 0, msg: `"although"`}}},
		{name: "word containing a function word", track: track(cue(0, 1000, "Let me tell you about theory\nand much more of it today."))},
		{name: "top heavy", track: track(cue(0, 1000, "This is a very long first line\nShort.")),
			want: []want{{cue: 0, msg: "30 characters and the second 6"}}},
		// 22 is not more than 2 × 11.
		{name: "ratio at bound passes", track: track(cue(0, 1000, "abcdefghij klmnopqrstu\nabcdefghijk"))},
		// 11 > 2 × 1, but 11 − 1 is not more than 10.
		{name: "difference at bound passes", track: track(cue(0, 1000, "abcdefghijk\na"))},
		{name: "difference over bound", track: track(cue(0, 1000, "abcdefghijkl\na")),
			want: []want{{cue: 0, msg: "12 characters and the second 1"}}},
		{name: "second line in another speaker's voice", track: track(spanned(cue(0, 1000, "Where were you last night?\nOut."),
			caption.Span{Start: 0, End: 26, Voice: "Alice"}, caption.Span{Start: 27, End: 31, Voice: "Bob"}))},
		{name: "second line opened by a speaker label", track: track(spanned(cue(0, 1000, "Alice: Where were you?\nBob: Out."),
			caption.Span{Start: 0, End: 6, Label: true}, caption.Span{Start: 23, End: 27, Label: true}))},
		{name: "the same speaker goes on", track: track(spanned(voiced(cue(0, 1000, "This is a very long first line\nShort."), "Alice"),
			caption.Span{Start: 31, End: 37, Voice: "Alice"})),
			want: []want{{cue: 0, msg: "30 characters and the second 6"}}},
		{name: "a label not at the line start", track: track(spanned(cue(0, 1000, "This is a very long first line\nHi. Bob: Yes."),
			caption.Span{Start: 35, End: 39, Label: true})),
			want: []want{{cue: 0, msg: "30 characters and the second 13"}}},
	})
}

// spanned returns c with spans.
func spanned(c caption.Cue, spans ...caption.Span) caption.Cue {
	c.Spans = spans
	return c
}

// voiced returns c spoken by voice.
func voiced(c caption.Cue, voice string) caption.Cue {
	c.Voice = voice
	return c
}
