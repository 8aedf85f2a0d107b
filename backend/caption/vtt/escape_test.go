package vtt

import (
	"math/rand/v2"
	"testing"
)

// TestAppendEscapedFastPath checks the fast path's plain-text checks
// against the byte loop, escapeEach, on random text rich in the bytes it
// looks for.
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
			want, wantStart := escapeEach([]byte("x"), s, start)
			if string(got) != string(want) || gotStart != wantStart {
				t.Fatalf("appendEscaped(%q, %v) = %q, %v; want %q, %v", s, start, got, gotStart, want, wantStart)
			}
		}
	}
}
