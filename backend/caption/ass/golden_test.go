package ass

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json and <case>.want.diags.
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.ass", "testdata/*.in.ssa"}, Parse: Parse,
		Check: checkInvariants, Diags: ".want.diags"}
}

// TestGolden parses each testdata/<case>.in.ass (or .in.ssa) and compares
// the IR with <case>.want.json and the diagnostics with <case>.want.diags
// (one per line: line, severity, code, message).
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// checkInvariants asserts what every parse must give, whatever the input.
func checkInvariants(t *testing.T, track *caption.Track, diags []caption.Diagnostic) {
	t.Helper()
	if track == nil {
		t.Fatal("nil track")
	}
	if track.Version != caption.Version {
		t.Errorf("version %d", track.Version)
	}
	for i, c := range track.Cues {
		if c.StartMs < 0 || c.EndMs < c.StartMs {
			t.Errorf("cue %d: times %d..%d", i, c.StartMs, c.EndMs)
		}
		if i > 0 && c.StartMs < track.Cues[i-1].StartMs {
			t.Errorf("cue %d is out of order", i)
		}
		if strings.HasSuffix(c.Text, "\n") || strings.ContainsRune(c.Text, '\r') {
			t.Errorf("cue %d: text %q has a trailing newline or a CR", i, c.Text)
		}
		n := len([]rune(c.Text))
		for _, s := range c.Spans {
			if s.Start < 0 || s.End > n || s.Start >= s.End {
				t.Errorf("cue %d: span [%d,%d) outside %d characters", i, s.Start, s.End, n)
			}
		}
		if c.SourceLine < 1 {
			t.Errorf("cue %d: source line %d", i, c.SourceLine)
		}
		if c.Placement != nil && c.Placement.IsZero() {
			t.Errorf("cue %d: empty placement", i)
		}
	}
	golden.CheckDiagnostics(t, diags)
}
