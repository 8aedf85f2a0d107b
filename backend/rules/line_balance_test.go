package rules

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// PoorLineBreak must agree with the rule's Check on every text.
func TestPoorLineBreakMatchesCheck(t *testing.T) {
	t.Parallel()
	vocab := []string{"the", "a", "An", "of", "TO", "in,", "at.", "and", "but", "is", "was", "have", "upon", "among",
		"harbour", "lights", "were", "Marta", "don't", "l'the", "the)", "café", "東京", "-", "–", "—", ">>", "-Hi", "so", "that", "x", "quay", "supercalifragilistic"}
	rng := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "one line", "a\nb\nc", "the\n", "\nthe", "word the \nnext", "word the\t\nnext", "top line\n  - dash"}
	for range 20000 {
		var sb strings.Builder
		n := 1 + rng.IntN(12)
		brk := rng.IntN(n + 1)
		for k := range n {
			if k > 0 {
				if k == brk {
					sb.WriteByte('\n')
				} else {
					sb.WriteByte(' ')
				}
			}
			sb.WriteString(vocab[rng.IntN(len(vocab))])
		}
		texts = append(texts, sb.String())
	}
	for _, s := range texts {
		tr := &caption.Track{Cues: []caption.Cue{{Text: s}}}
		want := len(LineUnbalanced{}.Check(tr, Params{})) > 0
		if got := PoorLineBreak(s); got != want {
			t.Fatalf("PoorLineBreak(%q) = %v, Check says %v", s, got, want)
		}
	}
}
