package srt

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestLinear feeds long lines and long runs of what could start markup or
// blocks, which would take minutes if any step were quadratic.
func TestLinear(t *testing.T) {
	t.Parallel()
	const n = 1 << 20
	cue := "1\n00:00:01,000 --> 00:00:02,000\n"
	tests := map[string]string{
		"ampersands":       cue + strings.Repeat("&", n),
		"override opens":   cue + strings.Repeat("{\\", n/2),
		"override closed":  cue + strings.Repeat("{\\", n/2) + "}",
		"tag opens":        cue + strings.Repeat("<a ", n/3),
		"font opens":       cue + strings.Repeat(`<font color="red">`, n/18),
		"continuations":    cue + strings.Repeat("x\n\n", n/3),
		"malformed blocks": strings.Repeat("x\n\n", n/3),
		"counters":         strings.Repeat("1\n", n/2),
		"timing lines":     strings.Repeat("00:00:01,000 --> 00:00:00,000\n", n/30),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// A hang guard, not a speed target (those are benchmarks):
			// best of three, with room for the race detector.
			tr, diags := golden.ParseWithin(t, Parse, []byte(in), 10*time.Second)
			checkInvariants(t, tr, diags)
			if err := Write(&bytes.Buffer{}, tr); err != nil {
				t.Fatal(err)
			}
		})
	}
}
