package sbv

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// inputs returns the golden inputs testdata/<case>.in.sbv.
func inputs(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("testdata/*.in.sbv")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no golden inputs: %v", err)
	}
	return files
}

// TestGolden parses each testdata/<case>.in.sbv and compares the IR with
// <case>.want.json and the diagnostics and source lines with
// <case>.want.diag.txt.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, in := range inputs(t) {
		base := strings.TrimSuffix(in, ".in.sbv")
		t.Run(filepath.Base(base), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			tr, diags, err := Parse(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr, diags)
			var js bytes.Buffer
			if err := caption.WriteJSON(&js, tr); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, base+".want.json", js.Bytes())
			compareGolden(t, base+".want.diag.txt", []byte(describe(tr, diags)))
		})
	}
}

// describe lists the cues' source lines and the diagnostics, one a line.
func describe(tr *caption.Track, diags []caption.Diagnostic) string {
	var sb strings.Builder
	sb.WriteString("source lines:")
	for _, c := range tr.Cues {
		fmt.Fprintf(&sb, " %d", c.SourceLine)
	}
	sb.WriteString("\n")
	for _, d := range diags {
		fmt.Fprintf(&sb, "%d %s %s: %s\n", d.Line, d.Severity, d.Code, d.Message)
	}
	return sb.String()
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// FuzzParse checks that no input makes Parse panic and that what it
// produces keeps the IR's invariants.
func FuzzParse(f *testing.F) {
	for _, in := range inputs(f) {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, diags, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("Parse returned an error for in-memory input: %v", err)
		}
		checkInvariants(t, tr, diags)
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
	for _, d := range diags {
		if d.Code == "" || d.Message == "" || d.Line < 0 {
			t.Errorf("bad diagnostic %+v", d)
		}
		switch d.Severity {
		case caption.SeverityError, caption.SeverityWarning, caption.SeverityInfo:
		default:
			t.Errorf("bad severity in %+v", d)
		}
	}
}
