package engine

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/fix"
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

// TestCheckReusesSourceFindings: checking an output with the source's
// check to reuse gives exactly the findings of checking it from scratch,
// for every preset and fix profile, on a generated track with splits,
// retimings and stripped cues and on every golden input.
func TestCheckReusesSourceFindings(t *testing.T) {
	eng := newTestEngine(t)
	inputs := map[string][]byte{"synth.srt": synth.SRT(3000)}
	files, _ := filepath.Glob("testdata/*/input.*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = b
	}
	tracks := map[string]*caption.Track{"split and unbalanced": splitsAndPoorBreaks(400)}
	for name, data := range inputs {
		_, src, _, err := format.Read(name, "", data)
		if err == nil && len(src.Cues) > 0 {
			tracks[name] = src
		}
	}
	for name, src := range tracks {
		for _, id := range eng.presets.IDs() {
			p, _ := eng.presets.Lookup(id)
			prev := checkRules(src, p, false, nil, nil)
			for _, prof := range []fix.Profile{fix.WarnOnly, fix.LayoutPreserveBreaks, fix.AutoSplitSentences, fix.AutoSplitCPS} {
				for _, aided := range []bool{false, true} {
					labelled, notes := labelSpeakers(src, p)
					fixed := fix.Apply(labelled, prof, targets(p, aided, nil, rateOf(p, src, nil)))
					out, _ := normalise(fixed.Track, p, true, notes, fixed.Sources)
					got, want := checkRules(out, p, true, prev, nil).all, checkRules(out, p, true, nil, nil).all
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, %s, %s (aided %v): reusing the source's findings gives %d findings, a full check %d",
							name, id, prof, aided, len(got), len(want))
					}
				}
			}
		}
	}
}

// splitsAndPoorBreaks is a track on which fixes split every tenth cue (a
// long line), so the cues after it move, while other cues keep findings of
// per-cue-text rules the delivery does not fix (poor line breaks, a
// suggestion on most presets).
func splitsAndPoorBreaks(n int) *caption.Track {
	t := &caption.Track{Version: caption.Version}
	for i := range n {
		text := "Fine."
		switch {
		case i%10 == 0:
			text = "This line runs on for far too long to be read in one go, and it keeps going with more words than any platform allows on one line."
		case i%3 == 0:
			text = "We walked all the way to the\nshop on the corner."
		}
		start := int64(i) * 9000
		t.Cues = append(t.Cues, caption.Cue{StartMs: start, EndMs: start + 8000, Text: text, SourceLine: 4*i + 1})
	}
	return t
}
