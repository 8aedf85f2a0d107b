package fix

import "strings"

// The line_unbalanced rule's shape limits (rules.LineUnbalanced): a top
// line is "much longer" than the bottom one with more than lineRatio times
// its characters and more than lineExcess characters over it. The rules
// package does not export them, nor its word list; TestUnbalancedMatchesRule
// keeps this copy in step with rules.LineUnbalanced.Check.
const (
	lineRatio  = 2
	lineExcess = 10
)

// unbalancedText reports whether the line_unbalanced rule flags text: two
// lines, the bottom one not a new speaker's, broken after a function word
// or with a top line much longer than the bottom one.
func unbalancedText(s string) bool {
	top, bottom, ok := strings.Cut(s, "\n")
	if !ok || strings.IndexByte(bottom, '\n') >= 0 || isDialogueLine(bottom) {
		return false
	}
	if w := ruleLastWord(top); w != "" && ruleWeakEnd(w) {
		return true
	}
	tc, bc := chars(top), chars(bottom)
	return tc > lineRatio*bc && tc-bc > lineExcess
}

// isDialogueLine reports whether line starts a new speaker's turn, as
// the rule sees it.
func isDialogueLine(line string) bool {
	line = strings.TrimLeft(line, " \t")
	return strings.HasPrefix(line, "-") || strings.HasPrefix(line, "–") ||
		strings.HasPrefix(line, "—") || strings.HasPrefix(line, ">>")
}

// ruleLastWord returns the last word of line when it is plain ASCII
// letters after a space (or the line start), "" otherwise.
func ruleLastWord(line string) string {
	line = strings.TrimRight(line, " \t")
	j := len(line)
	for j > 0 && (line[j-1]|0x20 >= 'a' && line[j-1]|0x20 <= 'z') {
		j--
	}
	if j == len(line) || j > 0 && line[j-1] != ' ' && line[j-1] != '\t' {
		return ""
	}
	return line[j:]
}

// ruleWeakEnd reports whether w (any case) is one of the rule's function
// words: articles, prepositions, conjunctions and auxiliaries.
func ruleWeakEnd(w string) bool {
	if len(w) > 8 {
		return false
	}
	var b [8]byte
	for k := 0; k < len(w); k++ {
		b[k] = w[k] | 0x20
	}
	switch string(b[:len(w)]) {
	case "a", "an", "the",
		"of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "about", "over", "under",
		"after", "before", "between", "through", "without", "within", "upon", "during", "against", "among",
		"toward", "towards",
		"and", "but", "or", "nor", "if", "because", "although", "unless", "whether", "than",
		"is", "are", "was", "were", "am", "be", "been", "will", "would", "shall", "should", "can", "could",
		"may", "might", "must", "has", "have", "had", "do", "does", "did":
		return true
	}
	return false
}

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
