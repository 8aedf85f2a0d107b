package ass

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// trimLineSpaces drops the spaces at the start and end of each line of
// text, and line breaks at its end, moving the spans with the text.
// Authors often write "one \N two"; libass does not draw those spaces, and
// rules that count characters per line must not count them either.
func trimLineSpaces(text string, spans []caption.Span) (string, []caption.Span) {
	if !strings.HasPrefix(text, " ") && !strings.HasSuffix(text, " ") &&
		!strings.Contains(text, " \n") && !strings.Contains(text, "\n ") {
		return text, spans
	}
	runes := []rune(text)
	keep := make([]bool, len(runes))
	for start := 0; start <= len(runes); {
		end := start
		for end < len(runes) && runes[end] != '\n' {
			end++
		}
		lo, hi := start, end
		for lo < hi && runes[lo] == ' ' {
			lo++
		}
		for hi > lo && runes[hi-1] == ' ' {
			hi--
		}
		for i := lo; i < hi; i++ {
			keep[i] = true
		}
		if end < len(runes) {
			keep[end] = true // the line break itself
		}
		start = end + 1
	}
	// at[i] is the new offset of old offset i.
	at := make([]int, len(runes)+1)
	var sb strings.Builder
	sb.Grow(len(text))
	for i, r := range runes {
		at[i+1] = at[i]
		if keep[i] {
			sb.WriteRune(r)
			at[i+1]++
		}
	}
	out := strings.TrimRight(sb.String(), "\n")
	n := at[len(runes)] - (sb.Len() - len(out))
	var kept []caption.Span
	for _, s := range spans {
		s.Start, s.End = at[clamp(s.Start, len(runes))], min(at[clamp(s.End, len(runes))], n)
		if s.Start >= s.End {
			continue
		}
		if k := len(kept) - 1; k >= 0 && kept[k].End == s.Start && sameStyle(kept[k], s) {
			kept[k].End = s.End
			continue
		}
		kept = append(kept, s)
	}
	return out, kept
}

// sameStyle reports whether two spans style text alike.
func sameStyle(a, b caption.Span) bool {
	a.Start, a.End, b.Start, b.End = 0, 0, 0, 0
	return a == b
}

func clamp(i, n int) int { return max(0, min(i, n)) }
