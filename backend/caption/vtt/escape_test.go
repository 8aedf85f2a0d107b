package vtt

import (
	"math/rand/v2"
	"testing"
)

// escapeReference is appendEscaped without its fast path.
func escapeReference(buf []byte, s string, atLineStart bool) ([]byte, bool) {
	last, prev := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escapeByte[c] {
			continue
		}
		if i > prev {
			atLineStart = false
		}
		prev = i + 1
		var rep string
		switch c {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '\r':
			rep = "&#13;"
		case '\n':
			if !atLineStart {
				atLineStart = true
				continue
			}
			rep = "&#10;"
		}
		buf = append(append(buf, s[last:i]...), rep...)
		last = i + 1
		atLineStart = false
	}
	if len(s) > prev {
		atLineStart = false
	}
	return append(buf, s[last:]...), atLineStart
}

// TestAppendEscapedFastPath checks the word-at-a-time plain-text check
// against the byte loop on random text rich in the bytes it looks for.
func TestAppendEscapedFastPath(t *testing.T) {
	t.Parallel()
	plain := []string{"a", "b", " ", "é", "\x00", "=", ".", "\xff", "\x7f", "\x8a", "\x25\x80", "~"}
	special := []string{"&", "<", ">", "\r", "\n", "<>", "\n\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var s string
		density := r.Float64() / 4
		for range r.IntN(40) {
			if r.Float64() < density {
				s += special[r.IntN(len(special))]
			} else {
				s += plain[r.IntN(len(plain))]
			}
		}
		for _, start := range []bool{false, true} {
			got, gotStart := appendEscaped([]byte("x"), s, start)
			want, wantStart := escapeReference([]byte("x"), s, start)
			if string(got) != string(want) || gotStart != wantStart {
				t.Fatalf("appendEscaped(%q, %v) = %q, %v; want %q, %v", s, start, got, gotStart, want, wantStart)
			}
		}
	}
}
