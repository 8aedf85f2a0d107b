package name_test

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/name"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in   string
		want       string // "" when refused
		wantReason string
		wantCode   string // details.codePoint
	}{
		{name: "plain", in: "ci deploy", want: "ci deploy"},
		{name: "trimmed", in: "\t ci \n", want: "ci"},
		{name: "other scripts", in: "Übersetzung 字幕 ترجمة", want: "Übersetzung 字幕 ترجمة"},
		{name: "zero-width non-joiner in Persian", in: "می\u200cخواهم", want: "می\u200cخواهم"},
		{name: "emoji sequence with a joiner", in: "team 👩\u200d💻", want: "team 👩\u200d💻"},
		{name: "exactly the maximum", in: strings.Repeat("é", 30), want: strings.Repeat("é", 30)},
		{name: "empty", in: "   ", wantReason: "required"},
		{name: "too long", in: strings.Repeat("é", 31), wantReason: "too_long"},
		{name: "NUL", in: "a\x00b", wantReason: "unsafe_character", wantCode: "U+0000"},
		{name: "ESC sequence", in: "ok\x1b[2J", wantReason: "unsafe_character", wantCode: "U+001B"},
		{name: "inner newline", in: "a\nb", wantReason: "unsafe_character", wantCode: "U+000A"},
		{name: "inner tab", in: "a\tb", wantReason: "unsafe_character", wantCode: "U+0009"},
		{name: "DEL", in: "a\x7f", wantReason: "unsafe_character", wantCode: "U+007F"},
		{name: "C1 CSI", in: "a\u009b2J", wantReason: "unsafe_character", wantCode: "U+009B"},
		{name: "right-to-left override", in: "key\u202etxt.exe", wantReason: "unsafe_character", wantCode: "U+202E"},
		{name: "Arabic letter mark", in: "a\u061cb", wantReason: "unsafe_character", wantCode: "U+061C"},
		{name: "left-to-right mark", in: "a\u200eb", wantReason: "unsafe_character", wantCode: "U+200E"},
		{name: "right-to-left mark", in: "a\u200fb", wantReason: "unsafe_character", wantCode: "U+200F"},
		{name: "first isolate", in: "a\u2068b", wantReason: "unsafe_character", wantCode: "U+2068"},
		{name: "pop isolate", in: "a\u2069", wantReason: "unsafe_character", wantCode: "U+2069"},
		{name: "zero-width space", in: "ad\u200bmin", wantReason: "unsafe_character", wantCode: "U+200B"},
		{name: "byte order mark", in: "\ufeffci", wantReason: "unsafe_character", wantCode: "U+FEFF"},
		{name: "tag character", in: "ci\U000E0041", wantReason: "unsafe_character", wantCode: "U+E0041"},
		{name: "line separator", in: "a\u2028b", wantReason: "unsafe_character", wantCode: "U+2028"},
		{name: "invalid UTF-8", in: "a\xffb", wantReason: "invalid_utf8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := name.Check("name", tt.in, 30)
			if tt.wantReason == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Check(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.BadRequest || got != "" {
				t.Fatalf("Check(%q) = %q, %v; want bad_request", tt.in, got, err)
			}
			if e.Details["field"] != "name" || e.Details["reason"] != tt.wantReason {
				t.Errorf("details = %v; want field name, reason %s", e.Details, tt.wantReason)
			}
			if tt.wantCode != "" && (e.Details["codePoint"] != tt.wantCode || !strings.Contains(e.Message, tt.wantCode)) {
				t.Errorf("details = %v, message %q; want codePoint %s named", e.Details, e.Message, tt.wantCode)
			}
			if strings.ContainsFunc(e.Message, name.Unsafe) {
				t.Errorf("message %q repeats an unsafe character", e.Message)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"字幕 👩\u200d💻", "字幕 👩\u200d💻"},
		{`back\slash`, `back\slash`},
		{"a\x00b", `a\x00b`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"row\tcol\r\nnext", `row\tcol\r\nnext`},
		{"a\x7f\u009b", `a\x7f\u009b`},
		{"key\u202etxt.exe", `key\u202etxt.exe`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"tag\U000E0041", `tag\U000e0041`},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`},
		{"\ufffd stays", "\ufffd stays"},
	}
	for _, tt := range tests {
		if got := name.Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if got := name.Escape(tt.in); strings.ContainsFunc(got, name.Unsafe) {
			t.Errorf("Escape(%q) = %q still holds an unsafe character", tt.in, got)
		}
	}
}
