package caption

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

// Caption files whose text has no ASCII, as UTF-16 stores it: two bytes a
// character, neither of them zero.
const (
	hebrewSRT = "1\r\n00:00:01,000 --> 00:00:03,000\r\nשלום עולם, מה שלומך היום? אני בסדר גמור, תודה רבה לך\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\nלהתראות\r\n"
	// 33 units then pairs: the probe's 128 units end inside a pair.
	splitPair   = "1\n00:00:01,000 --> 00:00:02,000 \n" + "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀"
	japaneseVTT = "WEBVTT\n\n00:01.000 --> 00:03.000\nこんにちは、世界。今日はとても良い天気ですね。散歩に行きましょう。\n\n00:04.000 --> 00:06.000\nさようなら\n"
)

func TestDecodeText(t *testing.T) {
	t.Parallel()
	utf16le := func(s string) []byte {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	utf16be := func(s string) []byte {
		b := []byte{0xFE, 0xFF}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	utf32 := func(le bool, s string) []byte {
		b := []byte{0x00, 0x00, 0xFE, 0xFF}
		if le {
			b = []byte{0xFF, 0xFE, 0x00, 0x00}
		}
		for _, r := range s {
			if le {
				b = append(b, byte(r), byte(r>>8), byte(r>>16), 0)
			} else {
				b = append(b, 0, byte(r>>16), byte(r>>8), byte(r))
			}
		}
		return b
	}
	tests := []struct {
		name     string
		in       []byte
		wantText string
		wantEnc  string
		wantDiag string
		wantLine int
	}{
		{"plain utf-8", []byte("héllo"), "héllo", EncodingUTF8, "", 0},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, "héllo"...), "héllo", EncodingUTF8BOM, "", 0},
		{"utf-16le", utf16le("héllo 😀"), "héllo 😀", EncodingUTF16LE, "", 0},
		{"utf-16be", utf16be("héllo 😀"), "héllo 😀", EncodingUTF16BE, "", 0},
		{"utf-16 odd byte", append(utf16le("a"), 'x'), "a\uFFFD", EncodingUTF16LE, CodeEncodingNotUTF8, 1},
		{"utf-16 unpaired surrogate", []byte{0xFF, 0xFE, 'a', 0, '\n', 0, 0x00, 0xD8, 'b', 0}, "a\n\uFFFDb", EncodingUTF16LE, CodeEncodingNotUTF8, 2},
		{"utf-32le", utf32(true, "héllo 😀"), "héllo 😀", EncodingUTF32LE, "", 0},
		{"utf-32be", utf32(false, "héllo 😀"), "héllo 😀", EncodingUTF32BE, "", 0},
		{"utf-32 out of range", []byte{0xFF, 0xFE, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F}, "\uFFFD", EncodingUTF32LE, CodeEncodingNotUTF8, 1},
		// A BOM says UTF-8: a byte that is not is read as Windows-1252,
		// and said so.
		{"utf-8 bom with invalid bytes", append([]byte{0xEF, 0xBB, 0xBF}, "Caf\xe9 cr\xe8me"...), "Café crème", EncodingUTF8BOM, CodeEncodingNotUTF8, 1},
		// UTF-8 but for one byte: the rest stays UTF-8.
		{"utf-8 with a stray byte", []byte("1\n00:00:01,000 --> 00:00:02,000\nCafé crème\nna\xefve"), "1\n00:00:01,000 --> 00:00:02,000\nCafé crème\nnaïve", EncodingUTF8, CodeEncodingNotUTF8, 4},
		{"utf-8 with a cut sequence", []byte("“quoted”\n\xe2\x80 and “more”"), "“quoted”\nâ€ and “more”", EncodingUTF8, CodeEncodingNotUTF8, 2},
		// Windows-1252 text seldom holds what reads as UTF-8 (here "Ã©"):
		// fewer such sequences than bad bytes leave it Windows-1252.
		{"windows-1252 with a utf-8 look-alike", []byte("caf\xe9 cr\xe8me na\xefve \xc3\xa9"), "café crème naïve Ã©", EncodingWindows1252, CodeEncodingNotUTF8, 1},
		{"windows-1252 lines end in cr", []byte("a\rb\r\ncaf\xe9"), "a\rb\r\ncafé", EncodingWindows1252, CodeEncodingNotUTF8, 3},
		{"windows-1252", []byte("line\ncaf\xe9 \x93quoted\x94 \x80"), "line\ncafé “quoted” €", EncodingWindows1252, CodeEncodingNotUTF8, 2},
		{"windows-1252 undefined byte", []byte{0x81}, "\uFFFD", EncodingWindows1252, CodeEncodingNotUTF8, 1},
		{"empty", nil, "", EncodingUTF8, "", 0},
		{"utf-16le without a bom", utf16le("1\n00:00:01,000 --> 00:00:02,000\nHéllo")[2:], "1\n00:00:01,000 --> 00:00:02,000\nHéllo", EncodingUTF16LE, CodeEncodingNotUTF8, 1},
		{"utf-16be without a bom", utf16be("WEBVTT\n\n00:01.000 --> 00:02.000\nHi")[2:], "WEBVTT\n\n00:01.000 --> 00:02.000\nHi", EncodingUTF16BE, CodeEncodingNotUTF8, 1},
		{"ascii is not taken for utf-16", []byte("1\n00:00:01,000 --> 00:00:02,000\nHi"), "1\n00:00:01,000 --> 00:00:02,000\nHi", EncodingUTF8, "", 0},
		{"a stray nul is not utf-16", []byte("1\n00:00:01,000\x00 --> 00:00:02,000\nHi"), "1\n00:00:01,000\x00 --> 00:00:02,000\nHi", EncodingUTF8, "", 0},
		// Text in another script has few zero bytes: its ASCII structure
		// tells the byte order.
		{"hebrew utf-16le without a bom", utf16le(hebrewSRT)[2:], hebrewSRT, EncodingUTF16LE, CodeEncodingNotUTF8, 1},
		{"hebrew utf-16be without a bom", utf16be(hebrewSRT)[2:], hebrewSRT, EncodingUTF16BE, CodeEncodingNotUTF8, 1},
		{"japanese utf-16le without a bom", utf16le(japaneseVTT)[2:], japaneseVTT, EncodingUTF16LE, CodeEncodingNotUTF8, 1},
		{"japanese utf-16be without a bom", utf16be(japaneseVTT)[2:], japaneseVTT, EncodingUTF16BE, CodeEncodingNotUTF8, 1},
		{"a surrogate pair split by the probe's end", utf16le(splitPair)[2:], splitPair, EncodingUTF16LE, CodeEncodingNotUTF8, 1},
		// Bytes a real UTF-8 or Windows-1252 file holds, whose zero bytes
		// would not make sense as UTF-16.
		{"an unpaired surrogate is not utf-16", []byte("1\x00\n\x00\x00\xd8a\x00b\x00c\x00"), "1\x00\n\x00\x00Øa\x00b\x00c\x00", EncodingWindows1252, CodeEncodingNotUTF8, 2},
		{"control characters are not utf-16", []byte("1\x00\n\x00\x01\x02a\x00b\x00c\x00"), "1\x00\n\x00\x01\x02a\x00b\x00c\x00", EncodingUTF8, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, enc, diags := DecodeText(tt.in)
			if text != tt.wantText || enc != tt.wantEnc {
				t.Errorf("DecodeText = %q, %q; want %q, %q", text, enc, tt.wantText, tt.wantEnc)
			}
			switch {
			case tt.wantDiag == "" && len(diags) != 0:
				t.Errorf("unexpected diagnostics %+v", diags)
			case tt.wantDiag != "" && (len(diags) != 1 || diags[0].Code != tt.wantDiag || diags[0].Line != tt.wantLine):
				t.Errorf("diagnostics = %+v; want one %s on line %d", diags, tt.wantDiag, tt.wantLine)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"\r\r\n\n", []string{"", "", ""}},
	}
	for _, tt := range tests {
		if got := SplitLines(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitLines(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestAppendClock(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ms     int64
		digits int
		sep    byte
		want   string
	}{
		{0, 2, ',', "00:00:00,000"},
		{3_723_004, 2, ',', "01:02:03,004"},
		{360_000_000, 2, '.', "100:00:00.000"},
		{61_500, 1, '.', "0:01:01.500"},
		{-5, 2, '.', "00:00:00.000"},
	}
	for _, tt := range tests {
		if got := string(AppendClock(nil, tt.ms, tt.digits, tt.sep)); got != tt.want {
			t.Errorf("AppendClock(%d) = %q; want %q", tt.ms, got, tt.want)
		}
	}
}

func TestTextBuilder(t *testing.T) {
	t.Parallel()
	var b TextBuilder
	b.Write("plain ", Span{})
	b.Write("it", Span{Italic: true})
	b.Write("alic", Span{Italic: true, Start: 99})
	b.Write("\n", Span{})
	b.Write("bö", Span{Bold: true})
	b.Write("\n\n", Span{Bold: true})
	text, spans := b.Build()
	if text != "plain italic\nbö" {
		t.Errorf("text = %q", text)
	}
	want := []Span{{Start: 6, End: 12, Italic: true}, {Start: 13, End: 15, Bold: true}}
	if !reflect.DeepEqual(spans, want) {
		t.Errorf("spans = %+v; want %+v", spans, want)
	}
	b.Reset()
	b.Write("x", Span{})
	if text, spans := b.Build(); text != "x" || spans != nil || b.Len() != 1 {
		t.Errorf("after Reset: %q %+v", text, spans)
	}
}

// TestFinishOrder: cues are put in start order for every format, with a
// warning only where the format requires that order.
func TestFinishOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format string
		warn   bool
	}{{"srt", true}, {"vtt", true}, {"sbv", true}, {"json", true}, {"ass", false}, {"ttml", false}} {
		tr := &Track{Source: &Source{Format: tc.format}, Cues: []Cue{{StartMs: 5000, EndMs: 6000}, {StartMs: 1000, EndMs: 2000}}}
		var d Diagnostics
		Finish(tr, &d)
		if tr.Cues[0].StartMs != 1000 {
			t.Errorf("%s: cues not sorted: %+v", tc.format, tr.Cues)
		}
		if warned := len(d) == 1 && d[0].Code == CodeCuesOutOfOrder; warned != tc.warn || len(d) > 1 {
			t.Errorf("%s: diagnostics %+v; want a cues_out_of_order warning: %v", tc.format, d, tc.warn)
		}
	}
}

// TestFinishReplacesNUL: a NUL in cue text becomes U+FFFD, one character
// for one so that spans keep their offsets, with a warning on the cue.
func TestFinishReplacesNUL(t *testing.T) {
	t.Parallel()
	tr := &Track{Cues: []Cue{{SourceLine: 3, Text: "a\x00b", Spans: []Span{{Start: 2, End: 3, Italic: true}}}}}
	var d Diagnostics
	Finish(tr, &d)
	if tr.Cues[0].Text != "a\uFFFDb" || len(d) != 1 || d[0].Code != CodeNonStandardSyntax || d[0].Line != 3 {
		t.Errorf("text %q, diagnostics %+v", tr.Cues[0].Text, d)
	}
}

// TestDecodeTextBadBytes: each line holding bytes its encoding cannot
// read gets an error naming them, up to [maxBadLines] lines, then one
// that counts the rest; the whole-file Windows-1252 reading stays one
// warning.
func TestDecodeTextBadBytes(t *testing.T) {
	t.Parallel()
	many := strings.Repeat("déjà vu\nna\xefve\n", maxBadLines+7)
	tests := []struct {
		name      string
		in        string
		wantLines []int
		wantSev   Severity
		wantIn    []string // in the first diagnostic's message
	}{
		{"two lines", "1\nCafé, déjà, ça\nna\xefve \xe9t\xe9\nok\n\x80 cr\xe8me brûlée", []int{3, 5}, SeverityError,
			[]string{"0xEF", `"ï"`, "0xE9", `"é"`}},
		{"an undefined windows-1252 byte", "Café\n\x81", []int{2}, SeverityError, []string{"0x81", "U+FFFD"}},
		{"capped", many, append(seq(2, 2, maxBadLines), 2*maxBadLines+2), SeverityError, []string{"0xEF"}},
		{"windows-1252", "caf\xe9\ncr\xe8me", []int{1}, SeverityWarning, []string{"Windows-1252"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, diags := DecodeText([]byte(tt.in))
			var lines []int
			for _, d := range diags {
				lines = append(lines, d.Line)
				if d.Code != CodeEncodingNotUTF8 || d.Severity != tt.wantSev {
					t.Errorf("diagnostic %+v; want %s %s", d, tt.wantSev, CodeEncodingNotUTF8)
				}
			}
			if !reflect.DeepEqual(lines, tt.wantLines) {
				t.Fatalf("lines %v; want %v", lines, tt.wantLines)
			}
			for _, w := range tt.wantIn {
				if !strings.Contains(diags[0].Message, w) {
					t.Errorf("message %q lacks %q", diags[0].Message, w)
				}
			}
			if tt.name == "capped" {
				if last := diags[len(diags)-1].Message; !strings.Contains(last, "7 more lines") {
					t.Errorf("last message %q does not count the 7 lines left", last)
				}
			}
		})
	}
}

// seq returns n numbers from first, step apart.
func seq(first, step, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = first + i*step
	}
	return out
}
