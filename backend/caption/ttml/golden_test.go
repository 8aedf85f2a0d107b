package ttml

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

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden parses every testdata/<case>.in.ttml and compares the IR
// (<case>.want.json), the diagnostics (<case>.diags.txt) and the writer's
// output (<case>.out.ttml) with the golden files.
func TestGolden(t *testing.T) {
	t.Parallel()
	ins, err := filepath.Glob("testdata/*.in.ttml")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.ttml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			tr, diags, err := Parse(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			var ir, out bytes.Buffer
			if err := caption.WriteJSON(&ir, tr); err != nil {
				t.Fatal(err)
			}
			if err := Write(&out, tr); err != nil {
				t.Fatal(err)
			}
			golden(t, "testdata/"+name+".want.json", ir.Bytes())
			golden(t, "testdata/"+name+".diags.txt", formatDiags(diags))
			golden(t, "testdata/"+name+".out.ttml", out.Bytes())
		})
	}
}

func formatDiags(diags []caption.Diagnostic) []byte {
	var b bytes.Buffer
	for _, d := range diags {
		fmt.Fprintf(&b, "%d %s %s: %s\n", d.Line, d.Severity, d.Code, d.Message)
	}
	return b.Bytes()
}

func golden(t *testing.T, path string, got []byte) {
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
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestDiagnosticsHaveLines checks that every diagnostic has a code, a
// severity and a 1-based line wherever it is tied to the document.
func TestDiagnosticsHaveLines(t *testing.T) {
	t.Parallel()
	ins, _ := filepath.Glob("testdata/*.in.ttml")
	for _, in := range ins {
		src, _ := os.ReadFile(in)
		_, diags, _ := Parse(bytes.NewReader(src))
		for _, d := range diags {
			if d.Code == "" || d.Severity == "" {
				t.Errorf("%s: diagnostic without code or severity: %+v", in, d)
			}
			if d.Line < 1 && d.Code != caption.CodeEmptyInput && d.Code != caption.CodeNoCues {
				t.Errorf("%s: diagnostic %s has line %d", in, d.Code, d.Line)
			}
		}
	}
}
