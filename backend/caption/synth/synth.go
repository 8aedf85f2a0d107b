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

// lineEnds is a read-only list of the content words a line ends on: an
// editor never leaves "the" or "and" at the end of a line.
var lineEnds = [...]string{
	"harbour", "lights", "quay", "Marta", "morning", "station", "safe", "anymore", "tide", "hour",
}

// SRT returns an SRT file of n cues, about 105 bytes each: 40,000 cues make
// the 4 MiB file the engine's benchmarks use. It reads like an edited
// programme: each cue stays up long enough for 11 to 15 characters per
// second (13 on average, about 150 words a minute), 200 ms apart; lines end
// on content words; every seventh cue is italic and every eleventh has two
// speakers. A few cues carry the problems QA exists for, at realistic
// rates: every 50th reads too fast (25 cps) and every 97th overlaps the
// next cue by 300 ms.
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
		for len(b)-start < width-4 {
			if len(b) > start {
				b = append(b, ' ')
			}
			b = append(b, words[next()]...)
		}
		b = append(b, ' ')
		return append(b, lineEnds[next()%len(lineEnds)]...)
	}
	var start int64
	var text []byte
	for i := 0; i < n; i++ {
		text = text[:0]
		switch {
		case i%11 == 0:
			text = append(text, "- "...)
			text = line(text, 26)
			text = append(text, "\n- "...)
			text = line(text, 24)
		case i%7 == 0:
			text = append(text, "<i>"...)
			text = line(text, 28)
			text = append(text, "</i>\n<i>"...)
			text = line(text, 22)
			text = append(text, "</i>"...)
		default:
			text = line(text, 30)
			text = append(text, '\n')
			text = line(text, 26)
		}
		cps := int64(11 + i%5)
		if i%50 == 49 {
			cps = 25
		}
		end := start + max(1000, int64(len(text))*1000/cps)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '\n')
		b = caption.AppendClock(b, start, 2, ',')
		b = append(b, " --> "...)
		b = caption.AppendClock(b, end, 2, ',')
		b = append(b, '\n')
		b = append(b, text...)
		b = append(b, "\n\n"...)
		start = end + 200
		if i%97 == 96 {
			start = end - 300
		}
	}
	return b
}
