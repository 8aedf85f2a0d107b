package scc

import (
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusAll reads every .scc in the corpus: no panic, the invariants
// hold, and what Write makes of the cues reads back to what Delivered
// says. It logs how many files, cues and diagnostics of each code it saw.
func TestCorpusAll(t *testing.T) {
	t.Parallel()
	tally := golden.NewTally(t, "SCC")
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		tr, diags := golden.MustParse(t, Parse, c.Input)
		checkInvariants(t, tr, diags)
		assertDelivered(t, tr)
		tally.Add(tr, diags)
	}, ".scc")
}

// TestCorpusFiles checks files whose captions are plain to see in their
// hex, and pycaption's own expectations where it has them.
func TestCorpusFiles(t *testing.T) {
	t.Parallel()
	type cue struct {
		start, end int64
		text       string
	}
	tests := []struct {
		file  string
		cues  int
		codes []string
		want  map[int]cue // by index; a zero time is not checked
	}{
		{file: "pycaption/fixtures/scc/sample_scc_pop_on.scc", cues: 7, want: map[int]cue{
			0: {9743, 12279, "( clock ticking )"},
			1: {0, 0, "MAN:\nWhen we think\nof \"E equals m c-squared\","},
			6: {0, 36169, "<LAUGHING & WHOOPS!>"},
		}},
		// Paint-on: shown as it arrives, erased by EDM.
		{file: "pycaption/fixtures/scc/sample_scc_paint_on_edm.scc", cues: 2, want: map[int]cue{
			0: {33, 1001, "I think"}, 1: {2035, 4004, "Hello"},
		}},
		// pycaption's WebVTT of this file has the two rows as two lines.
		{file: "pycaption/fixtures/scc/scc_that_generates_webvtt_with_proper_newlines.scc", cues: 1,
			codes: []string{caption.CodeNonStandardSyntax}, want: map[int]cue{0: {0, 0, "aa\nbb"}}},
		{file: "pycaption/examples/example.scc", cues: 3, want: map[int]cue{
			0: {0, 5272, "Letra traducida al Español\n♪ ¡Uooye! ¡Vámonos! ♪"},
		}},
		// The extended character replaces the letter before it.
		{file: "pycaption/fixtures/scc/sample_scc_with_extended_characters.scc", cues: 2,
			codes: []string{caption.CodeContentNotDisplayed}, want: map[int]cue{
				0: {0, 0, "MÄRTHA:"}, 1: {0, 0, "JUNIOR: ¡Yum!\nYa me siento mucho mejor."},
			}},
		{file: "pycaption/fixtures/scc/sample_scc_tab_offset.scc", cues: 7, want: map[int]cue{
			0: {2102, 5839, "NARRATOR:\nThe world of work is changing."},
		}},
		// Written out as words, not hex: nothing to read.
		{file: "pycaption/fixtures/translated_scc/sample_translated_scc_no_brackets.scc",
			codes: []string{caption.CodeMalformedBlock, caption.CodeNoCues}},
		{file: "pycaption/fixtures/scc/sample_scc_empty.scc", codes: []string{caption.CodeNoCues}},
		// Italics by mid-row code; a row sent past column 32.
		{file: "ttconv/scc/pop-on.scc", cues: 3, codes: []string{caption.CodeNonStandardSyntax}, want: map[int]cue{
			2: {0, 0, "Test ½ Caption\nTest  test  Captions"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			tr, diags := golden.ParseCorpus(t, Parse, tt.file)
			if len(tr.Cues) != tt.cues {
				t.Fatalf("%d cues, want %d: %+v", len(tr.Cues), tt.cues, tr.Cues)
			}
			for _, code := range tt.codes {
				if !slices.ContainsFunc(diags, func(d caption.Diagnostic) bool { return d.Code == code }) {
					t.Errorf("no %s diagnostic in %+v", code, diags)
				}
			}
			for i, w := range tt.want {
				c := tr.Cues[i]
				if c.Text != w.text || w.start != 0 && c.StartMs != w.start || w.end != 0 && c.EndMs != w.end {
					t.Errorf("cue %d: %d-%d %q, want %d-%d %q", i, c.StartMs, c.EndMs, c.Text, w.start, w.end, w.text)
				}
			}
		})
	}
}

// TestCorpusRollUp: roll-up captions read as an editor expects, a cue
// per line: cues follow each other without overlapping, one line each,
// and no line repeats the one before it.
func TestCorpusRollUp(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"pycaption/fixtures/scc/sample_scc_roll_up_ru2.scc", "pycaption/fixtures/scc/sample_scc_roll_up_ru3.scc", "ttconv/scc/mix-rows-roll-up.scc"} {
		tr, _ := golden.ParseCorpus(t, Parse, file)
		if len(tr.Cues) < 15 {
			t.Errorf("%s: %d cues", file, len(tr.Cues))
		}
		for i, c := range tr.Cues {
			if strings.Contains(c.Text, "\n") {
				t.Errorf("%s cue %d: %q is more than a line", file, i, c.Text)
			}
			if i > 0 && c.StartMs < tr.Cues[i-1].EndMs {
				t.Errorf("%s cue %d starts at %d, before cue %d ends (%d)", file, i, c.StartMs, i-1, tr.Cues[i-1].EndMs)
			}
		}
		if got := tr.Cues[0].Text + " / " + tr.Cues[1].Text; got != ">>> HI. / I'M KEVIN CUNNING AND AT" {
			t.Errorf("%s: the first lines are %q", file, got)
		}
	}
}
