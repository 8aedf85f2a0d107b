package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"fits", "short.srt", 20, "short.srt"},
		{"exactly fits", "short.srt", 9, "short.srt"},
		{"ascii", "season-01/episode-12.srt", 12, "…sode-12.srt"},
		{"japanese, two columns each", "字幕ファイル最終版.srt", 11, "…最終版.srt"},
		{"a wide character never half shown", "字幕ファイル最終版.srt", 10, "…終版.srt"},
		{"decomposed accent stays on its letter", "se\u0301rie-e\u0301te\u0301.srt", 9, "…-e\u0301te\u0301.srt"},
		{"flag emoji is one cluster", "🇯🇵🇫🇷abc", 4, "…abc"},
		{"width one", "abcdef", 1, "…"},
		{"width zero", "abcdef", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := cutStart(tt.in, tt.width)
			if got != tt.want {
				t.Errorf("cutStart(%q, %d) = %q; want %q", tt.in, tt.width, got, tt.want)
			}
			if !utf8.ValidString(got) || columns(got) > max(0, tt.width) {
				t.Errorf("cutStart(%q, %d) = %q: %d columns, valid UTF-8 %v", tt.in, tt.width, got, columns(got), utf8.ValidString(got))
			}
		})
	}
}

func TestCutEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"fits", "no cues", 10, "no cues"},
		{"ascii", "the file has no cues at all", 10, "the file…"},
		{"japanese", "キューがありません", 7, "キュー…"},
		{"a wide character never half shown", "キューがありません", 6, "キュ…"},
		{"accent kept whole", "re\u0301sume\u0301 long", 7, "re\u0301sume\u0301…"},
		{"width zero", "abc def", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := cutEnd(tt.in, tt.width)
			if got != tt.want {
				t.Errorf("cutEnd(%q, %d) = %q; want %q", tt.in, tt.width, got, tt.want)
			}
			if !utf8.ValidString(got) || columns(got) > tt.width {
				t.Errorf("cutEnd(%q, %d) = %q: %d columns", tt.in, tt.width, got, columns(got))
			}
		})
	}
}

func TestVisibleAndPad(t *testing.T) {
	t.Parallel()
	if got := visible("a\nb\x1b[2Jc\xffd"); strings.ContainsAny(got, "\n\x1b") || !utf8.ValidString(got) {
		t.Errorf("visible left a control character or invalid UTF-8: %q", got)
	}
	for _, tc := range []struct {
		in    string
		width int
	}{{"abc", 6}, {"日本語", 8}, {"été", 5}, {"toolong", 3}} {
		got := padEnd(tc.in, tc.width)
		if want := max(tc.width, columns(tc.in)); columns(got) != want {
			t.Errorf("padEnd(%q, %d) is %d columns; want %d", tc.in, tc.width, columns(got), want)
		}
	}
}
