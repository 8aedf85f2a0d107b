package ass

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

var update = flag.Bool("update", false, "rewrite testdata/*.want.json and *.want.diags from the reader's output")

// goldenInputs lists the golden cases' input files.
func goldenInputs(tb testing.TB) []string {
	tb.Helper()
	var files []string
	for _, pat := range []string{"testdata/*.in.ass", "testdata/*.in.ssa"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		tb.Fatal("no golden inputs in testdata")
	}
	return files
}

// TestGolden parses each testdata/<case>.in.ass (or .in.ssa) and compares
// the IR with <case>.want.json and the diagnostics with <case>.want.diags
// (one per line: line, severity, code, message).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, in := range goldenInputs(t) {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)), ".in")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			track, diags, err := Parse(bytes.NewReader(src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkInvariants(t, track, diags)
			var got bytes.Buffer
			if err := caption.WriteJSON(&got, track); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join("testdata", name+".want.json"), got.Bytes())
			compareGolden(t, filepath.Join("testdata", name+".want.diags"), []byte(formatDiags(diags)))
		})
	}
}

func formatDiags(diags []caption.Diagnostic) string {
	var sb strings.Builder
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
		t.Errorf("%s differs (run go test -update after checking the change)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
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
	for _, d := range diags {
		if d.Code == "" || d.Line < 0 || d.Message == "" {
			t.Errorf("bad diagnostic %+v", d)
		}
		switch d.Severity {
		case caption.SeverityError, caption.SeverityWarning, caption.SeverityInfo:
		default:
			t.Errorf("diagnostic %+v: severity %q", d, d.Severity)
		}
	}
}
