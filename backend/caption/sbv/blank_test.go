package sbv

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestBlankLinesInsideCue: the blank lines inside one cue's text, here
// every other line, give one warning with their number and the first of
// them, as the SRT reader does: a warning per line would let a broken file
// flood the report with thousands of identical lines.
func TestBlankLinesInsideCue(t *testing.T) {
	t.Parallel()
	in := "0:00:01.000,0:00:02.000\n" + strings.Repeat("x\n\n", 10_000) + "0:00:03.000,0:00:04.000\ny\n\nz\n"
	tr, diags := golden.MustParse(t, Parse, []byte(in))
	if len(tr.Cues) != 2 || strings.Count(tr.Cues[0].Text, "x") != 10_000 || tr.Cues[1].Text != "y\nz" {
		t.Fatalf("got %d cues; want one cue holding every x line, then one holding y and z", len(tr.Cues))
	}
	want := "4 warning non_standard_syntax: 9999 blank lines inside cue text, the first before line 4; " +
		"the lines after them were kept in the cue above\n" +
		"20005 warning non_standard_syntax: a blank line inside cue text; the lines after it were kept in the cue above\n"
	if got := string(golden.DiagLines(diags)); got != want {
		t.Errorf("got %d diagnostics:\n%.500s\nwant:\n%s", len(diags), got, want)
	}
}
