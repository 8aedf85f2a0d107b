package ffmpeg

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitPages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		out  string
		n    int
		want []string // nil: an error
	}{
		{"one\n\f\ftwo\n", 3, []string{"one\n", "", "two\n"}},   // tesseract 5: between pages
		{"one\n\f\ftwo\n\f", 3, []string{"one\n", "", "two\n"}}, // older: after each page
		{"one\n", 1, []string{"one\n"}},
		{"", 1, []string{""}},
		{"one\ftwo", 3, nil},
		{"a\fb\fc\fd", 2, nil},
		{"a\fb\f junk", 2, nil},
	}
	for _, c := range cases {
		got, err := splitPages([]byte(c.out), c.n)
		if c.want == nil {
			if err == nil {
				t.Errorf("splitPages(%q, %d) = %q, want an error", c.out, c.n, got)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitPages(%q, %d) = %q, %v; want %q", c.out, c.n, got, err, c.want)
		}
	}
}

func TestCleanText(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"It's 7:45 already, and the train\nleaves at 8 o'clock sharp!\n", "It's 7:45 already, and the train\nleaves at 8 o'clock sharp!"},
		{"| left them  on the\ttable,\n", "I left them on the table,"},
		{"Honestly? | think it\u2019s \u201cfine\u201d \u2014 ok\u2026\n", "Honestly? I think it's \"fine\" - ok..."},
		{"My \ufb02ight\n", "My flight"},
		{"\n  \n. , ~\nHello\n-=_\n", "Hello"},
		{"$24.99\n", "$24.99"},
		{"?!\n", ""},
		{"", ""},
		{"bad \xff byte\n", "bad byte"},
	}
	for _, c := range cases {
		if got := cleanText(c.in); got != c.want {
			t.Errorf("cleanText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMergeCues(t *testing.T) {
	t.Parallel()
	in := []ocrCue{
		{0, 10, "Hello there"},
		{10, 40, "Hello there!"}, // the same, read again: merged, this text kept
		{41, 43, "Hel1o there!"}, // after a one-frame flicker
		{43, 60, "Something else"},
		{70, 80, "Something else"}, // the same text after a real gap: kept apart
		{80, 90, "Short"},
		{90, 95, "Shorter words"}, // too different
		{100, 130, "A caption"},
		{131, 137, "A cap*#@ion"}, // misread while something passed behind
		{138, 150, "A caption"},
		{150, 160, "Next"},
		{160, 170, "Xx"}, // not short: kept
		{170, 180, "Next"},
	}
	got := mergeCues(in, 6)
	want := []ocrCue{{0, 43, "Hello there!"}, {43, 60, "Something else"}, {70, 80, "Something else"}, {80, 90, "Short"},
		{90, 95, "Shorter words"}, {100, 150, "A caption"}, {150, 160, "Next"}, {160, 170, "Xx"}, {170, 180, "Next"}}
	if len(got) != len(want) {
		t.Fatalf("mergeCues = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cue %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"héllo", "hello", 1},
	}
	for _, c := range cases {
		if got := editDistance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestOCRFrameRate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fps  float64
		want ocrRate
	}{
		{30, ocrRate{30, 1}}, {25, ocrRate{25, 1}}, {29.97002997, ocrRate{30000, 1001}}, {30000.0 / 1001, ocrRate{30000, 1001}},
		{60000.0 / 1001, ocrRate{60000, 1001}}, {23.976023976, ocrRate{24000, 1001}}, {12.5, ocrRate{1250, 100}},
		{0, ocrRate{25, 1}}, {-3, ocrRate{25, 1}}, {1e9, ocrRate{25, 1}},
	}
	for _, c := range cases {
		if got := ocrFrameRate(c.fps); got != c.want {
			t.Errorf("ocrFrameRate(%v) = %v, want %v", c.fps, got, c.want)
		}
	}
	ntsc := ocrRate{30000, 1001}
	for _, c := range []struct {
		n    int
		want int64
	}{{0, 0}, {1, 33}, {2, 67}, {30, 1001}, {107892, 3599996}} {
		if got := ntsc.ms(c.n); got != c.want {
			t.Errorf("frame %d at 29.97 fps: %d ms, want %d", c.n, got, c.want)
		}
	}
}

func TestWriteSRT(t *testing.T) {
	t.Parallel()
	got := string(writeSRT([]ocrCue{{0, 45, "One"}, {45, 3600 * 30, "Two\nlines"}}, ocrRate{30, 1}))
	want := "1\n00:00:00,000 --> 00:00:01,500\nOne\n\n2\n00:00:01,500 --> 01:00:00,000\nTwo\nlines\n\n"
	if got != want {
		t.Errorf("writeSRT = %q, want %q", got, want)
	}
}

func FuzzSplitPages(f *testing.F) {
	f.Add([]byte("one\n\f\ftwo\n"), uint8(3))
	f.Add([]byte("one\n\f\ftwo\n\f"), uint8(3))
	f.Add([]byte(""), uint8(1))
	f.Fuzz(func(t *testing.T, out []byte, n uint8) {
		pages, err := splitPages(out, int(n))
		if err != nil {
			return
		}
		if len(pages) != int(n) {
			t.Fatalf("%d pages for %d images", len(pages), n)
		}
		if joined := strings.Join(pages, "\f"); !strings.HasPrefix(string(out), joined) {
			t.Fatalf("pages %q are not the output %q", pages, out)
		}
		for _, p := range pages {
			text := cleanText(p)
			if !utf8.ValidString(text) || strings.Contains(text, "\n\n") || text != strings.TrimSpace(text) {
				t.Fatalf("cleanText(%q) = %q: invalid, blank line or edge space", p, text)
			}
			if again := cleanText(text); again != text {
				t.Fatalf("cleanText is not idempotent: %q, then %q", text, again)
			}
		}
	})
}

func FuzzMergeCues(f *testing.F) {
	f.Add([]byte{0, 10, 'a', 0, 5, 'a', 3, 4, 'b'}, uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, gap uint8) {
		// Triples (gap before, length, letter) make ordered cues.
		var cues []ocrCue
		at := 0
		for i := 0; i+2 < len(data); i += 3 {
			start := at + int(data[i]%8)
			end := start + 1 + int(data[i+1]%20)
			cues = append(cues, ocrCue{start, end, strings.Repeat(string(rune('a'+data[i+2]%3)), 1+int(data[i+2]%5))})
			at = end
		}
		out := mergeCues(cues, int(gap%10))
		if len(out) > len(cues) || (len(cues) > 0) != (len(out) > 0) {
			t.Fatalf("%d cues merged into %d", len(cues), len(out))
		}
		starts, ends, texts := map[int]bool{}, map[int]bool{}, map[string]bool{}
		for _, c := range cues {
			starts[c.start], ends[c.end], texts[c.text] = true, true, true
		}
		for i, c := range out {
			if !starts[c.start] || !ends[c.end] || !texts[c.text] || c.end <= c.start {
				t.Fatalf("cue %v is not made of input cues %v", c, cues)
			}
			if i > 0 && c.start < out[i-1].end {
				t.Fatalf("cues overlap: %v", out)
			}
		}
	})
}
