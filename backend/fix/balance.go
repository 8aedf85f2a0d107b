package fix

import "strings"

// markLabels sets label on each word of s whose gap before it lies inside
// a bracketed sound label ("[door slams]", "(laughs)") or between a pair
// of music notes ("♪ la la ♪"). Unclosed brackets and an unpaired note
// mark nothing.
func markLabels(s string, ws []word) {
	type open struct {
		r rune
		k int
	}
	var stack [8]open
	depth, note := 0, -1
	mark := func(from, to int) {
		for j := from + 1; j <= to; j++ {
			ws[j].label = true
		}
	}
	for k := range ws {
		ws[k].label = false
	}
	for k := range ws {
		w := s[ws[k].b0:ws[k].b1]
		for _, r := range w {
			switch r {
			case '[', '(':
				if depth < len(stack) {
					stack[depth] = open{r, k}
				}
				depth++
			case ']', ')':
				want := '['
				if r == ')' {
					want = '('
				}
				if depth > 0 && depth <= len(stack) && stack[depth-1].r == want {
					depth--
					mark(stack[depth].k, k)
				} else if depth > len(stack) {
					depth--
				}
			case '♪', '♫':
				if note >= 0 {
					mark(note, k)
					note = -1
				} else {
					note = k
				}
			}
		}
	}
}

// hasLabelChars reports whether s holds a bracket or a music note, so that
// [markLabels] has work to do.
func hasLabelChars(s string) bool {
	return strings.ContainsAny(s, "[(") || strings.Contains(s, "♪") || strings.Contains(s, "♫")
}
