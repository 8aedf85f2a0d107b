package ass

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestParseTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   int64
		wantOK bool
	}{
		{"0:00:00.00", 0, true},
		{"0:01:39.04", 99040, true},
		{"1:02:03.45", 3723450, true},
		{"00:00:03.766", 3766, true},
		{"0:00:10.1", 10100, true},
		{"0:00:11.12345", 11123, true},
		{"0:00:12.9996", 13000, true},
		{"0:00:13", 13000, true},
		{"123456:00:00.00", 123456 * 3600000, true},
		{"1234567:00:00.00", 0, false},
		{"0:60:00.00", 0, false},
		{"0:00:60.00", 0, false},
		{"0:000:01.00", 0, false},
		{"0:00:01.", 0, false},
		{"0:00:01.x", 0, false},
		{"-0:00:01.00", 0, false},
		{"0:00", 0, false},
		{"", 0, false},
		{"0:00:01,00", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseTime(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseTime(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestParseColor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    string // css of fromABGR, "" when invalid
		wantSSA string // css with the alpha dropped, as SSA styles read
	}{
		{"&H00FFFFFF", "#ffffff", "#ffffff"},
		{"&H0000FFFF", "#ffff00", "#ffff00"},
		{"&H000000FF&", "#ff0000", "#ff0000"},
		{"&HFF", "#ff0000", "#ff0000"},
		{"&h00ff00ff&", "#ff00ff", "#ff00ff"},
		{"H0000FF", "#ff0000", "#ff0000"},
		{"&H80FF0000", "#0000ff7f", "#0000ff"},
		{"&HFF000000", "#00000000", "#000000"},
		{"65535", "#ffff00", "#ffff00"},
		{"16777215", "#ffffff", "#ffffff"},
		{"-2147483640", "#0800007f", "#080000"},
		{"4294967295", "#ffffff00", "#ffffff"},
		{"&H123456789", "", ""},
		{"&HXYZ", "", ""},
		{"&H", "", ""},
		{"", "", ""},
		{"4294967296", "", ""},
		{"red", "", ""},
	}
	for _, tt := range tests {
		v, ok := parseColor(tt.in)
		got, gotSSA := "", ""
		if ok {
			c := fromABGR(v)
			got = c.css()
			c.alpha = 0
			gotSSA = c.css()
		}
		if got != tt.want || gotSSA != tt.wantSSA {
			t.Errorf("parseColor(%q) gives %q / %q; want %q / %q", tt.in, got, gotSSA, tt.want, tt.wantSSA)
		}
	}
}

func TestLegacyToNumpad(t *testing.T) {
	t.Parallel()
	want := map[int]int{1: 1, 2: 2, 3: 3, 5: 7, 6: 8, 7: 9, 9: 4, 10: 5, 11: 6}
	for v := -1; v <= 16; v++ {
		if got := legacyToNumpad(v); got != want[v] {
			t.Errorf("legacyToNumpad(%d) = %d, want %d", v, got, want[v])
		}
	}
}

func TestTrimLineSpaces(t *testing.T) {
	t.Parallel()
	it := func(s, e int) caption.Span { return caption.Span{Start: s, End: e, Italic: true} }
	tests := []struct {
		name      string
		text      string
		spans     []caption.Span
		wantText  string
		wantSpans []caption.Span
	}{
		{"untouched", "a b\nc", []caption.Span{it(0, 1)}, "a b\nc", []caption.Span{it(0, 1)}},
		{"edges", "  a b  ", []caption.Span{it(2, 5)}, "a b", []caption.Span{it(0, 3)}},
		{"around break", "one \n two", []caption.Span{it(5, 9)}, "one\ntwo", []caption.Span{it(4, 7)}},
		{"span of spaces only", "a  \nb", []caption.Span{it(1, 3)}, "a\nb", nil},
		{"rejoined spans", "a \n b", []caption.Span{it(0, 2), it(2, 5)}, "a\nb", []caption.Span{it(0, 3)}},
		{"trailing empty line", "a\n  ", []caption.Span{it(0, 4)}, "a", []caption.Span{it(0, 1)}},
		{"multibyte", " é \n ñ ", []caption.Span{it(1, 2), it(5, 6)}, "é\nñ", []caption.Span{it(0, 1), it(2, 3)}},
		{"only spaces", "   ", []caption.Span{it(0, 3)}, "", nil},
	}
	for _, tt := range tests {
		gotText, gotSpans := trimLineSpaces(tt.text, tt.spans)
		if gotText != tt.wantText || !reflect.DeepEqual(gotSpans, tt.wantSpans) {
			t.Errorf("%s: got %q %v, want %q %v", tt.name, gotText, gotSpans, tt.wantText, tt.wantSpans)
		}
	}
}

func TestIsTextHeader(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"[Events]":          true,
		"[V4+ Styles]":      true,
		" [Script Info] ":   true,
		"[ABC]":             false, // could be uuencoded data
		"[!VI(#-9($L/(]":    false,
		"[!VI(#-9($L/(RQ9*": false,
		"[]":                false,
	}
	for in, want := range tests {
		if got := isTextHeader(in); got != want {
			t.Errorf("isTextHeader(%q) = %v, want %v", in, got, want)
		}
	}
}
