package fix

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/rules"
)

// chars counts text the one way every rule counts, [rules.Characters]. It
// skips the grapheme segmenter for pure ASCII without a carriage return,
// where every byte but "\n" is a cluster of its own, because segmenting
// every line of a 40,000-cue track would cost more than all the fixes
// together; TestCharsMatchesRules keeps the two in step.
func chars(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == '\r' {
			return rules.Characters(s)
		}
		if c != '\n' {
			n++
		}
	}
	return n
}

// nLines is "1 line" or "n lines", for change messages.
func nLines(n int) string { return counted(n, "line", "lines") }

// nBreaks is "1 line break" or "n line breaks", for change messages.
func nBreaks(n int) string { return counted(n, "line break", "line breaks") }

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
