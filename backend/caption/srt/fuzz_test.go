package srt

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// FuzzParse checks that no input makes Parse or Write panic, and that
// what they produce keeps the IR's invariants.
func FuzzParse(f *testing.F) {
	suite().Fuzz(f, func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
		checkInvariants(t, tr, diags)
		var out bytes.Buffer
		if err := Write(&out, tr); err != nil {
			t.Fatal(err)
		}
		again, _, err := Parse(&out)
		if err != nil {
			t.Fatal(err)
		}
		want := Delivered(tr)
		if len(again.Cues) != len(want.Cues) {
			t.Fatalf("written file reads back with %d cues, want %d:\n%q", len(again.Cues), len(want.Cues), out.Bytes())
		}
		assertSameCues(t, want, again)
	})
}

// checkInvariants asserts what every parse result must satisfy.
func checkInvariants(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
	t.Helper()
	if tr == nil || tr.Cues == nil {
		t.Fatal("nil track or cues")
	}
	for i, c := range tr.Cues {
		if c.StartMs < 0 || c.EndMs < c.StartMs {
			t.Errorf("cue %d: times %d-%d", i, c.StartMs, c.EndMs)
		}
		if i > 0 && c.StartMs < tr.Cues[i-1].StartMs {
			t.Errorf("cue %d starts before cue %d", i, i-1)
		}
		if !utf8.ValidString(c.Text) {
			t.Errorf("cue %d: invalid UTF-8 text %q", i, c.Text)
		}
		if len(c.Text) > 0 && c.Text[len(c.Text)-1] == '\n' {
			t.Errorf("cue %d: text ends in a line break: %q", i, c.Text)
		}
		n := utf8.RuneCountInString(c.Text)
		for _, s := range c.Spans {
			if s.Start < 0 || s.Start >= s.End || s.End > n {
				t.Errorf("cue %d: span [%d,%d) outside %d code points", i, s.Start, s.End, n)
			}
		}
		if c.Placement != nil && c.Placement.IsZero() {
			t.Errorf("cue %d: empty placement", i)
		}
		if c.SourceLine < 1 {
			t.Errorf("cue %d: source line %d", i, c.SourceLine)
		}
	}
	golden.CheckDiagnostics(t, diags)
}
