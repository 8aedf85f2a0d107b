package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestByCue: the counting sort, with its shortcut for one rule's findings
// already in order, gives what a stable comparison sort gives, for
// findings in and out of order, with and without a cue, from one rule or
// several.
func TestByCue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	finding := func(rule, cue int) caption.Diagnostic {
		d := caption.Diagnostic{Code: string(rune('a' + rule))}
		if cue >= 0 {
			c := cue
			d.CueIndex = &c
		}
		return d
	}
	for trial := range 200 {
		cues := 1 + rng.IntN(20)
		per := make([][]caption.Diagnostic, 1+trial%3)
		n := 0
		for r := range per {
			for range 1 + rng.IntN(15) { // checkRules passes only rules that found something
				per[r] = append(per[r], finding(r, rng.IntN(cues+1)-1))
			}
			if trial%2 == 0 {
				// Most rules report in cue order.
				per[r] = sortedByCue([][]caption.Diagnostic{per[r]}, len(per[r]))
			}
			n += len(per[r])
		}
		if got, want := byCue(per, n, cues), sortedByCue(per, n); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: byCue differs from a stable sort", trial)
		}
	}
}
