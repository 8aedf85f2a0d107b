package srt

import "testing"

// plainSafeByLines is the definition [plainSafe] implements, byte by
// byte with the state of the line: a reference for FuzzPlainSafe.
func plainSafeByLines(text string) bool {
	content := false // the current line has a non-space byte
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '<', '&', '{', '\r':
			return false
		case '>':
			if i >= 2 && text[i-1] == '-' && text[i-2] == '-' {
				return false
			}
			content = true
		case '\n':
			if !content || isSpace(text[i-1]) {
				return false
			}
			content = false
		case ' ', '\t', '\f', '\v':
		default:
			content = true
		}
	}
	return text == "" || content && !isSpace(text[len(text)-1])
}

func FuzzPlainSafe(f *testing.F) {
	for _, s := range []string{"", "a", "a\nb", "a \nb", "\nb", "a\n\nb", "a-->b", "x>y", "a\n", " ", "a\r\nb", "<i>", "&amp;", "{\\an8}", " \tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainSafe(s), plainSafeByLines(s); got != want {
			t.Errorf("plainSafe(%q) = %v, byte by byte %v", s, got, want)
		}
	})
}
