package rules

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/rivo/uniseg"

	"github.com/captionqa/captionqa/backend/caption"
)

// graphemes counts the grapheme clusters of s that are not line breaks
// with the segmenter alone, the reference [Characters] must agree with.
func graphemes(s string) int {
	n, state := 0, -1
	for len(s) > 0 {
		var cl string
		cl, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		if cl != "\n" && cl != "\r" && cl != "\r\n" {
			n++
		}
	}
	return n
}

func TestCharacters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"ascii", "Hello, world!", 13},
		{"ascii two lines", "Hello\nworld", 10},
		{"crlf and cr excluded", "ab\r\ncd\re", 5},
		{"only breaks", "\n\r\n", 0},
		{"precomposed accent", "caf\u00e9", 4},
		{"combining accent after ascii", "cafe\u0301", 4},
		{"combining accent after line break", "a\n\u0301b", 3},
		{"combining marks mid text", "nai\u0308ve re\u0301sume\u0301", 12},
		{"emoji zwj family", "hi \U0001F468\u200D\U0001F469\u200D\U0001F467", 4},
		{"emoji skin tone", "\U0001F44D\U0001F3FD ok", 4},
		{"flag", "\U0001F1EB\U0001F1F7", 1},
		{"cjk", "你好，世界", 5},
		{"cjk two lines", "你好\n世界", 4},
		{"hangul jamo sequence", "\u1112\u1161\u11AB", 1},
		{"tab counts", "a\tb", 3},
		{"two flags", "\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA", 2},
		{"flag between ascii", "a\U0001F1EB\U0001F1F7b", 3},
		{"stacked marks then ascii", "a\u0301\u0302b c", 4},
		{"mixed runs", "Ça va? \U0001F468\u200D\U0001F469 oui\ne\u0301t\u00e9", 15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Characters(tc.text); got != tc.want {
				t.Errorf("Characters(%q) = %d, want %d", tc.text, got, tc.want)
			}
			// The ASCII fast path must agree with the segmenter.
			if got := graphemes(tc.text); got != tc.want {
				t.Errorf("graphemes(%q) = %d, want %d", tc.text, got, tc.want)
			}
		})
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"english", "Where are you going?", 4},
		{"two lines", "Where are\nyou going?", 4},
		{"extra spaces", "  a   b  ", 2},
		{"punctuation only tokens", "- Hi. - Bye. ... >>", 2},
		{"numbers", "It costs 1,000 dollars in 2024", 6},
		{"speaker label", "JOHN: Get out!", 3},
		{"sound label", "[door slams] (sighs) \u266a", 3},
		{"contraction", "don't stop", 2},
		{"chinese counts ideographs", "我们走吧", 4},
		{"japanese kana and kanji", "ありがとう 東京", 7},
		{"mixed token", "iPhone手机", 3},
		{"no-break space separates", "a\u00a0b", 2},
		{"accented word", "été naïve", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Words(tc.text); got != tc.want {
				t.Errorf("Words(%q) = %d, want %d", tc.text, got, tc.want)
			}
		})
	}
}

func TestRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		c        caption.Cue
		cps, wpm float64
	}{
		{"normal", cue(0, 2000, "Hello world"), 5.5, 60},
		{"empty", cue(0, 0, ""), 0, 0},
		{"zero duration", cue(1000, 1000, "Hi"), math.Inf(1), math.Inf(1)},
		{"negative duration", cue(1000, 500, "Hi"), math.Inf(1), math.Inf(1)},
		{"line break not counted", cue(0, 1000, "ab\ncd"), 4, 120},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := CharactersPerSecond(&tc.c); got != tc.cps {
				t.Errorf("CharactersPerSecond = %v, want %v", got, tc.cps)
			}
			if got := WordsPerMinute(&tc.c); got != tc.wpm {
				t.Errorf("WordsPerMinute = %v, want %v", got, tc.wpm)
			}
		})
	}
}

func TestFramesToMs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		frames, fps float64
		want        int64
	}{
		{2, 24, 84},
		{2, 25, 80},
		{2, 29.97, 67},
		{2, 0, 84},
		{20, 24, 834},
		{3, 30, 100},
		{12, 24, 500},
		{0, 24, 0},
	}
	for _, tc := range tests {
		if got := FramesToMs(tc.frames, tc.fps); got != tc.want {
			t.Errorf("FramesToMs(%v, %v) = %d, want %d", tc.frames, tc.fps, got, tc.want)
		}
	}
}

// FuzzCharacters checks the ASCII fast path against the segmenter alone.
func FuzzCharacters(f *testing.F) {
	for _, s := range []string{"", "abc", "a\u0301", "\r\n\u0301", "x\U0001F1EB\U0001F1F7y", "é\nü\r\nz", "\u0600a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Characters(s), graphemes(s); got != want {
			t.Errorf("Characters(%q) = %d, segmenter says %d", s, got, want)
		}
	})
}

// TestStandaloneRanges checks every rune [Characters] counts without the
// segmenter: it neither joins an ASCII letter before it nor takes one
// after it.
func TestStandaloneRanges(t *testing.T) {
	t.Parallel()
	for r := rune(0x80); r <= 0xFFFF; r++ {
		if !standalone(r) {
			continue
		}
		s := string(r)
		if graphemes("a"+s) != 2 || graphemes(s+"a") != 2 {
			t.Errorf("U+%04X is not a standalone grapheme", r)
		}
	}
}

// TestCharactersRandom compares [Characters] with the segmenter on random
// strings built from the characters that make segmentation hard.
func TestCharactersRandom(t *testing.T) {
	t.Parallel()
	parts := []string{
		"a", "Z", " ", ".", "\n", "\r", "\r\n", "é", "\u0301", "\u200d", "\u00ad", "\u0600",
		"\U0001F468", "\U0001F3FD", "\U0001F1EB", "\u1100", "\u1161", "\u11a8", "\uac00",
		"字", "か", "\u3099", "©", "\ufe0f", "\u0915", "\u094d", "\u0e33", "ф", "\u0483",
	}
	rng := rand.New(rand.NewPCG(7, 9))
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := Characters(s), graphemes(s); got != want {
			t.Fatalf("Characters(%q) = %d, segmenter says %d", s, got, want)
		}
	}
}

// wordsByFields is the definition [Words] implements, token by token: a
// whitespace-separated token counts each Han, hiragana or katakana
// character, plus one when it holds any other letter or digit.
func wordsByFields(s string) int {
	n := 0
	for _, tok := range strings.FieldsFunc(s, unicode.IsSpace) {
		other := false
		for _, r := range tok {
			switch {
			case r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
				n++
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				other = true
			}
		}
		if other {
			n++
		}
	}
	return n
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "JOHN: [laughs] - ok", "a\tb\nc", "字幕abc def", "- >> ", "café\u00a0bar", "x\xffy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Words(s), wordsByFields(s); got != want {
			t.Errorf("Words(%q) = %d, by fields %d", s, got, want)
		}
	})
}
