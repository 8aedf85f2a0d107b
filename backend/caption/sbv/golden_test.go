package sbv

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json and <case>.want.diag.txt
// (the diagnostics after the cues' source lines).
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.sbv"}, Parse: Parse, Check: checkInvariants,
		Diags: ".want.diag.txt", SourceLines: true}
}

// TestGolden parses each testdata/<case>.in.sbv and compares the IR with
// <case>.want.json and the diagnostics and source lines with
// <case>.want.diag.txt.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// FuzzParse checks that no input makes Parse panic and that what it
// produces keeps the IR's invariants.
func FuzzParse(f *testing.F) {
	suite().Fuzz(f, checkInvariants)
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
		if c.ID != "" || c.Spans != nil || c.Placement != nil {
			t.Errorf("cue %d: SBV cues have no ID, spans or placement: %+v", i, c)
		}
		if !utf8.ValidString(c.Text) || strings.HasSuffix(c.Text, "\n") || strings.ContainsRune(c.Text, '\r') {
			t.Errorf("cue %d: bad text %q", i, c.Text)
		}
		if c.SourceLine < 1 {
			t.Errorf("cue %d: source line %d", i, c.SourceLine)
		}
	}
	golden.CheckDiagnostics(t, diags)
}

// TestBrokenSeparatorIsNotText: a timing line with the wrong separator
// after a blank line is a cue lost, not more text of the cue above.
func TestBrokenSeparatorIsNotText(t *testing.T) {
	t.Parallel()
	tr, diags, err := Parse(strings.NewReader("0:00:01.000,0:00:03.000\nFirst.\n\n0:00:04.000;0:00:06.000\nBad sep.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Cues) != 1 || tr.Cues[0].Text != "First." {
		t.Errorf("cues = %+v; want the first cue alone", tr.Cues)
	}
	if len(diags) == 0 || diags[0].Code != caption.CodeInvalidTimestamp || diags[0].Severity != caption.SeverityError || diags[0].Line != 4 {
		t.Errorf("diagnostics = %+v; want invalid_timestamp (error) on line 4", diags)
	}
}
