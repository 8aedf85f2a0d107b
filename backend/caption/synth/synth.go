// Package synth makes synthetic caption files for benchmarks: realistic
// in shape (one or two lines, some italics, an occasional speaker dash or
// entity), deterministic in content, and sized to order.
package synth

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// words is a read-only vocabulary the generator draws text from.
var words = [...]string{
	"the", "harbour", "lights", "were", "already", "on", "when", "we", "reached", "north",
	"quay", "and", "nobody", "had", "seen", "Marta", "since", "morning", "I", "told",
	"you", "to", "wait", "for", "me", "at", "station", "it's", "not", "safe",
	"here", "anymore", "listen", "tide", "turns", "in", "an", "hour", "what", "about",
}

// SRT returns an SRT file of n cues, about 105 bytes each: 40,000 cues make
// the 4 MiB file the engine's benchmarks use. Cue i starts at i*2.5 s and
// lasts 2 s; every seventh cue is italic and every eleventh has two
// speakers.
func SRT(n int) []byte {
	b := make([]byte, 0, n*108)
	seed := uint32(2463534242)
	next := func() int {
		// xorshift32: fixed sequence, no shared random source.
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(len(words)))
	}
	line := func(b []byte, width int) []byte {
		start := len(b)
		for len(b)-start < width {
			if len(b) > start {
				b = append(b, ' ')
			}
			b = append(b, words[next()]...)
		}
		return b
	}
	for i := 0; i < n; i++ {
		start := int64(i) * 2500
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '\n')
		b = caption.AppendClock(b, start, 2, ',')
		b = append(b, " --> "...)
		b = caption.AppendClock(b, start+2000, 2, ',')
		b = append(b, '\n')
		switch {
		case i%11 == 0:
			b = append(b, "- "...)
			b = line(b, 26)
			b = append(b, "\n- "...)
			b = line(b, 24)
		case i%7 == 0:
			b = append(b, "<i>"...)
			b = line(b, 28)
			b = append(b, "</i>\n<i>"...)
			b = line(b, 22)
			b = append(b, "</i>"...)
		default:
			b = line(b, 30)
			b = append(b, '\n')
			b = line(b, 26)
		}
		b = append(b, "\n\n"...)
	}
	return b
}
