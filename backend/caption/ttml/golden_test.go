package ttml

import (
	"bytes"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json, <case>.diags.txt and
// <case>.out.ttml.
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.ttml"}, Parse: Parse,
		Diags: ".diags.txt", Write: Write, Out: ".out.ttml"}
}

// TestGolden parses every testdata/<case>.in.ttml and compares the IR
// (<case>.want.json), the diagnostics (<case>.diags.txt) and the writer's
// output (<case>.out.ttml) with the golden files.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// TestDiagnosticsHaveLines checks that every diagnostic has a code, a
// severity and a 1-based line wherever it is tied to the document.
func TestDiagnosticsHaveLines(t *testing.T) {
	t.Parallel()
	for _, c := range suite().Cases(t) {
		_, diags, _ := Parse(bytes.NewReader(c.Input))
		for _, d := range diags {
			if d.Code == "" || d.Severity == "" {
				t.Errorf("%s: diagnostic without code or severity: %+v", c.Path, d)
			}
			if d.Line < 1 && d.Code != caption.CodeEmptyInput && d.Code != caption.CodeNoCues {
				t.Errorf("%s: diagnostic %s has line %d", c.Path, d.Code, d.Line)
			}
		}
	}
}
